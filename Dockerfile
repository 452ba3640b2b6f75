# summscore serve: the scorer as an HTTP service (see docs/service.md, "Deployment").
#
#   docker build -t summscore .
#   docker run --rm -p 8000:8000 -e SUMMSCORE_PRESET=mastra summscore
#
# Configured by environment variables, SUMMSCORE_<OPTION> for any option of `summscore serve`
# (SUMMSCORE_JUDGE=openai, SUMMSCORE_MODEL=gpt-4o-mini, SUMMSCORE_TOKEN_ENV=SUMMSCORE_TOKEN, ...);
# secrets (OPENAI_API_KEY, the bearer token) are given at run time, never built in.
# EXTRAS adds optional stacks, e.g. --build-arg EXTRAS=serve,ragas,deepeval for upstream's prompts.
#
# Memory: with the default judge (the offline one, no SUMMSCORE_JUDGE) the server runs two worker
# processes, each recycled past SUMMSCORE_WORKER_MEMORY (320 MB); give the container 1.5 GB
# (SUMMSCORE_WORKER_MEMORY=200 fits 1 GB). With an LLM judge the server process alone stays under
# 300 MB. Stopping: on SIGTERM requests in flight get SUMMSCORE_SHUTDOWN_TIMEOUT (8 s), then are
# answered 503, within `docker stop`'s 10 s. See docs/service.md, "Bounds and timeouts".
FROM python:3.12-slim

ARG EXTRAS=serve

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    SUMMSCORE_HOST=0.0.0.0 \
    SUMMSCORE_PORT=8000

RUN groupadd --system --gid 10001 summscore \
 && useradd --system --uid 10001 --gid summscore --home-dir /home/summscore --create-home \
        --shell /usr/sbin/nologin summscore \
 && mkdir -p /var/cache/summscore \
 && chown summscore:summscore /var/cache/summscore

WORKDIR /opt/summscore
COPY pyproject.toml README.md ./
COPY constraints/ci.txt constraints/ci.txt
COPY src/ src/
# The versions CI tests (constraints/ci.txt), so that an image built later is the image tested.
RUN pip install --no-cache-dir -c constraints/ci.txt ".[${EXTRAS}]"

USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-m", "summscore.serve.healthcheck"]
ENTRYPOINT ["summscore", "serve"]
