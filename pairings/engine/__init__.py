"""Pure pairing engines (no Django): Swiss, single elimination, pods.

Plain frozen dataclasses in, plain frozen dataclasses out; randomness only through a
``random.Random`` passed in by the caller, whose seed is stored with the round (I-1).
"""
