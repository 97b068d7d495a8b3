"""PyScript entry point: start the web layer, nothing else."""

import js  # noqa: E402

js.performance.mark("fray:script")  # PyScript runs this file: what came before was its own start
from fray.web.app import main  # noqa: E402

main()
