"""``summscore serve``: the scorer as an HTTP service (extra ``summscore[serve]``).

    from summscore import SummarizationScorer
    from summscore.serve import ServeConfig, create_app

    app = create_app(SummarizationScorer(llm=client, model="gpt-4o-mini"), ServeConfig(max_queue=64))

Run ``app`` with any ASGI server (``uvicorn``); ``summscore serve`` does this from the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .config import ServeConfig

if TYPE_CHECKING:
    from fastapi import FastAPI

    from ..scorer import SummarizationScorer

__all__ = ["ServeConfig", "create_app"]


def create_app(scorer: SummarizationScorer, config: ServeConfig | None = None) -> FastAPI:
    """The ASGI app over ``scorer`` (see ``summscore.serve.app``); needs FastAPI."""
    try:
        from .app import create_app as make
    except ImportError as exc:  # pragma: no cover - depends on the environment
        from ..errors import MissingExtraError

        raise MissingExtraError(exc.name or "fastapi", "serve", "summscore serve", exc) from None
    return make(scorer, config)
