"""The plan of the version matrix (compat/matrix.py): the releases of each framework it runs, the
pins and extras each row installs beside them, and the test suites each row runs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".matrix"

# The oldest releases with the APIs summscore plugs into, then a spread up to the newest.
RAGAS = ("0.2.6", "0.2.15", "0.3.0", "0.3.5", "0.3.9", "0.4.0", "0.4.3")
DEEPEVAL = ("3.3.0", "3.6.0", "3.9.9", "4.0.0", "4.2.0", "4.3.1")
# The evaluation platforms' faces: the oldest release supported and the newest tested.
MLFLOW = ("3.4.0", "3.17.2")
INSPECT = ("0.3.130", "0.3.285")
OPIK = ("2.0.0", "2.2.122")
LANGSMITH = ("0.3.0", "0.15.0")
BRAINTRUST = ("0.0.130", "0.4.1")  # autoevals; braintrust (the SDK) beside it, see VERSION_PINS
PHOENIX = ("2.6.0", "3.9.4")  # arize-phoenix-evals
TRULENS = ("2.1.0", "2.16.0")  # trulens-core and trulens-feedback
PROMPTFOO = ("0.121.20", "0.123.1")  # the npm package, on Node 22 (0.55.0 fails)
EXTRA_PINS = {
    "ragas": ["langchain-community<0.4"],
    "deepeval": [],
    "mlflow": ["pandas"],  # mlflow.genai.evaluate reads its data with pandas
    "inspect": [],
    "opik": ["filelock<4"],  # opik's litellm
    "langsmith": [],
    "braintrust": [],
    "phoenix": ["pandas"],
    "trulens": [],
    "promptfoo": [],
}
# Requirements that go with one version of a framework (its companion package).
VERSION_PINS = {
    "braintrust": lambda v: ["braintrust==0.2.2" if v == BRAINTRUST[0] else "braintrust"],
    "trulens": lambda v: [f"trulens-feedback=={v}"],
}
# The package each framework is installed as, and the module that imports it.
PACKAGE = {
    "mlflow": "mlflow-skinny",
    "inspect": "inspect-ai",
    "braintrust": "autoevals",
    "phoenix": "arize-phoenix-evals",
    "trulens": "trulens-core",
}
MODULE = {
    "inspect": "inspect_ai",
    "braintrust": "autoevals",
    "phoenix": "phoenix.evals",
    "trulens": "trulens.core",
}
# The extras a row installs beside [dev,langchain] (the promptfoo webhook runs on the service).
ROW_EXTRAS = {"promptfoo": ",promptfoo"}
SUITES = {
    "ragas": [
        "compat/test_parity_ragas.py",
        "compat/test_dropin_ragas.py",
        "tests/test_ragas_collections_face.py",
        "tests/test_ragas_legacy_face.py",
        "tests/test_judges.py",
    ],
    "deepeval": [
        "compat/test_parity_deepeval.py",
        "compat/test_dropin_deepeval.py",
        "tests/test_deepeval_face.py",
        "tests/test_judges.py",
    ],
    "mlflow": ["tests/test_mlflow_face.py"],
    "inspect": ["tests/test_inspect_face.py"],
    "opik": ["tests/test_opik_face.py"],
    "langsmith": ["tests/test_langsmith_face.py"],
    "braintrust": ["tests/test_braintrust_face.py"],
    "phoenix": ["tests/test_phoenix_face.py"],
    "trulens": ["tests/test_trulens_face.py"],
    "promptfoo": ["tests/test_promptfoo_face.py", "tests/test_promptfoo_eval.py"],
}
FRAMEWORKS = tuple(SUITES)  # the order of the plan and of the table
# The every-face test (one scorer behind every face) needs every framework in one environment:
# what is added to a ragas or deepeval row for it (opik's litellm wants filelock<4).
EVERY_FACE = "compat/test_every_face.py"
_OTHER_FACES = "mlflow,inspect,opik,langsmith,promptfoo,braintrust,phoenix,trulens"
FACES_EXTRAS = {"ragas": f"deepeval,{_OTHER_FACES}", "deepeval": f"ragas,{_OTHER_FACES}"}
FACES_PINS = ["filelock<4"]
