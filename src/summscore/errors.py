"""Exceptions raised by summscore.

Every message is safe to log: judge failures pass through ``summscore.masking.secrets.redact``
before they are raised, so an API key never appears in one.
"""

from __future__ import annotations

__all__ = [
    "JudgeError",
    "JudgeOutputError",
    "MissingExtraError",
    "SummscoreError",
    "TransientJudgeError",
]


class SummscoreError(Exception):
    """Base class of every summscore error."""


class JudgeError(SummscoreError):
    """A judge call failed and retrying did not help (authentication, bad request, ...)."""


class TransientJudgeError(JudgeError):
    """A judge call failed in a way that may pass: rate limit, timeout, 5xx, dropped connection.

    ``retry_after`` is the server's Retry-After hint in seconds, when it sent one.
    """

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class JudgeOutputError(JudgeError):
    """The judge answered, but its reply could not be read as the requested JSON."""


class MissingExtraError(ImportError):
    """An optional framework is needed for this feature and is not installed (or does not
    import)."""

    def __init__(
        self,
        package: str,
        extra: str,
        feature: str,
        cause: ImportError | None = None,
        *,
        module: str | None = None,
    ) -> None:
        # ``module``: the name it imports as, where that is not the package's (trulens-core).
        missing = cause is None or _is_missing(module or package, cause)
        if missing:
            message = (
                f"{feature} needs the '{package}' package, which is not installed. "
                f"Install summscore's '{extra}' extra: {install_hint(extra)}"
            )
        else:
            message = (
                f"{feature} needs the '{package}' package, which is installed but does not import "
                f"as needed ({type(cause).__name__}: {cause}). Install a supported version with "
                f"summscore's '{extra}' extra: {install_hint(extra, options='--force-reinstall')}"
            )
        super().__init__(message)
        self.package = package
        self.extra = extra


def install_hint(extra: str, *, options: str = "") -> str:
    """How to install summscore with ``extra``: from a clone of the repository or from a wheel
    built there. summscore is on no package index, where its name with an extra would find
    nothing, or a stranger's package of that name."""
    flag = f"{options} " if options else ""
    return (
        f'pip install {flag}-e ".[{extra}]" in your clone of the repository, or '
        f'pip install {flag}"/path/to/summscore-<version>-py3-none-any.whl[{extra}]" '
        "with a wheel built there (summscore is not on a package index)"
    )


def _is_missing(package: str, cause: ImportError) -> bool:
    """Is ``cause`` the package itself being absent (not a dependency of it failing, nor a name
    this version of it lacks)?"""
    if not isinstance(cause, ModuleNotFoundError):
        return False  # "cannot import name X from pkg": installed, but another version
    name = getattr(cause, "name", None) or ""
    top = package.split("[")[0].split(">")[0].split("=")[0].strip().replace("-", "_")
    return name.split(".")[0] == top
