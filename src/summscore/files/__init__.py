"""Reading and writing files: the CLI's, the service's and Ray's shared input and output.

Raw records from JSONL, JSON, CSV, TSV, Parquet and Excel (:mod:`.records`, :mod:`.xlsx`,
:mod:`.raw`), read within caps (:mod:`.limits`, :mod:`.xlsx_guard`); rows with their source,
summary and id (:mod:`.datasets`); the results file (:mod:`.writer`: a partial file and an atomic
rename; its records :mod:`.result_rows`, its formats :mod:`.tables`, spreadsheet-safe cells
:mod:`.cells`), where a run may write (:mod:`.places`), ``--resume`` (:mod:`.resume`) and the
fingerprint that says what a result was scored from (:mod:`.fingerprint`); a run's statistics in
constant memory (:mod:`.run_stats`); and the job that scores a file end to end (:mod:`.job`).

May import the scorer, the report and everything below them; never a face, the CLI or the service.
"""
