"""The `shogi-robot` command line: one module per command group, registered in `controller.cli.main`."""
