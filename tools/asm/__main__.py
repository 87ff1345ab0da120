"""``python -m tools.asm``: see tools/asm/cli.py."""
import sys

from .cli import main

sys.exit(main())
