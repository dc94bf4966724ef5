"""Generate self-play positions for fitting the evaluation, the Executive against itself:
the command line of ``checkers_engine.ai.selfplay``, whose docstring says how a game is
played and what is written.

    python tools/selfplay.py --rule-set english --games 4000 --out DATA.jsonl
"""

from checkers_engine.ai.selfplay import main

if __name__ == "__main__":
    raise SystemExit(main())
