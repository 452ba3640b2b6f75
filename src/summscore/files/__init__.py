"""Reading and writing files: the CLI's, the service's and Ray's shared input and output.

Raw records from JSONL, JSON, CSV, TSV, Parquet and Excel (``records``, ``xlsx``,
``raw``, ``parquet``), read within caps (``limits``, ``xlsx_guard``, ``parquet``,
``parquet_pages``, ``parquet_schema``); rows with their source,
summary and id (``datasets``); the results file (``writer``: a partial file and an atomic
rename; its records ``result_rows``, its formats ``tables``, spreadsheet-safe cells
``cells``), where a run may write (``places``), ``--resume`` (``resume``) and the
fingerprint that says what a result was scored from (``fingerprint``); a run's statistics in
constant memory (``run_stats``); and the job that scores a file end to end (``job``).

May import the scorer, the report and everything below them; never a face, the CLI or the service.
"""
