import time
from fractions import Fraction
from tests.engine.test_outlook import *
def test_a():
    for cut in (4, 2):
        t=time.process_time()
        entrants=entrants_dropping((),1)
        truth=exact(entrants, ROUND_1, cut, Fraction(0))
        t1=time.process_time()
        out=simulated(entrants, ROUND_1, cut, Fraction(0))
        gaps={p: round(abs(c.share-float(truth.get(p,0))),4) for p,c in out.players.items()}
        print(cut, 'exact cpu', round(t1-t,1), 'sim', round(time.process_time()-t1,2), gaps)
