"""File interchange: every file format Matchslip reads or writes, and the services,
background import jobs, pages, URLs and management commands around them.

The layer above ``tournaments``, ``standings`` and ``pairings`` (docs/architecture.md): an
import builds events, players, rounds and results (``tournaments``), asks the pairing
layer whether anything is left to pair, and exports read the standings. Nothing below
imports this app.

* ``formats/`` — parsers and writers, one module per format (TOM ``.tdf``, event JSON v1,
  WER, melee.gg JSON), plain dataclasses (``formats.eventdata``) in between;
* ``services/`` — importing an ``EventData`` into the database (``imports``), import jobs
  on the worker (``import_jobs``), event JSON, archive, TOM and CSV exports;
* ``views/``, ``urls_staff.py``, ``tasks.py``, ``management/commands/`` — thin layers.
"""
