"""What the framework faces share, so that each face stays a translation of types.

``options`` reconciles a face's upstream-style options (``llm=``, ``model=``, ``threshold=``)
with a shared ``scorer=``; ``platforms`` builds the scorer of an evaluation platform's face
(MLflow, Inspect AI, Opik), reads a text out of a row field and writes a result's evidence as the
platform's metadata; ``rows`` scores one row of an evaluation platform (LangSmith,
promptfoo, Braintrust, Phoenix, TruLens) into a result that never raises for bad input;
``promptfoo`` speaks promptfoo's assertion protocol (the Python assertion and the service's
webhook route). May import the scorer and everything below it; never a face.
"""
