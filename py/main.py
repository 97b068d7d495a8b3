"""PyScript entry point: start the web layer, nothing else."""

from fray.web.app import main

main()
