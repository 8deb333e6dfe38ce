"""``python -m framemetrics``: the ``framemetrics`` command."""

from framemetrics.cli import main

main()
