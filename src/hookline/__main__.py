"""``python -m hookline``: the same as the ``hookline`` command."""

import sys

from hookline.cli import main

if __name__ == "__main__":
    sys.exit(main())
