"""``python -m summscore``: the summscore command line."""

import sys

from .cli import main

sys.exit(main())
