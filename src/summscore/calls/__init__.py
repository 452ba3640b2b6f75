"""Asking the judge: everything between a preset's "ask this task" and a judge backend's reply.

The caller (``caller``) asks one task and repairs unusable replies; the sender
(``sender``) sends one request with its timeout, retries (``policy``) and usage; the
limiter (``limiter``) bounds requests in flight; the source cache (``source_cache``) and
the persistent reply cache (``reply_cache``) save calls; replies are read as JSON
(``reply_json``) and checked (``checks``). Around them: the process pool for a CPU-bound
judge (``pool``, ``affinity``), the sync runner (``sync``), many-case streaming
(``many``) and the checking of a scorer's options (``setup``).

May import judges, prompts, masking and the bottom layer (results, errors, cases); never a
preset, the scorer or a face.
"""
