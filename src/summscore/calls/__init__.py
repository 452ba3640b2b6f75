"""Asking the judge: everything between a preset's "ask this task" and a judge backend's reply.

The caller (:mod:`.caller`) asks one task and repairs unusable replies; the sender
(:mod:`.sender`) sends one request with its timeout, retries (:mod:`.policy`) and usage; the
limiter (:mod:`.limiter`) bounds requests in flight; the source cache (:mod:`.source_cache`) and
the persistent reply cache (:mod:`.reply_cache`) save calls; replies are read as JSON
(:mod:`.reply_json`) and checked (:mod:`.checks`). Around them: the process pool for a CPU-bound
judge (:mod:`.pool`, :mod:`.affinity`), the sync runner (:mod:`.sync`), many-case streaming
(:mod:`.many`) and the checking of a scorer's options (:mod:`.setup`).

May import judges, prompts, masking and the bottom layer (results, errors, cases); never a
preset, the scorer or a face.
"""
