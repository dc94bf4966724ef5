"""Fit the evaluation's weights by logistic regression on game positions: the command line
of ``checkers_engine.ai.tuning``, whose docstring says what is fitted and how.

    python tools/tune.py                      # about 3 minutes on 2 busy cores
    python tools/tune.py --games 200 --depth 6 --write   # a bigger, slower sample
"""

from checkers_engine.ai.tuning import main

if __name__ == "__main__":
    raise SystemExit(main())
