"""The request layer: every public entry point's arguments validated once, from one declaration per parameter.

:mod:`framemetrics.request.parameters` declares each parameter (what it
accepts, its default, the entry points taking it, its numpydoc);
:mod:`framemetrics.request.validate` checks the arguments of a call against
them and writes the shared parameters' docs; :mod:`framemetrics.request.call`
runs a request on its engine: the one path of every entry point once its plan is made.
"""

from framemetrics.request.call import Call, run
from framemetrics.request.parameters import ENTRIES, ENTRY_POINTS, PARAMETERS, Parameter, declared
from framemetrics.request.validate import check, document, validate, validated

__all__ = [
    "ENTRIES",
    "ENTRY_POINTS",
    "PARAMETERS",
    "Call",
    "Parameter",
    "check",
    "declared",
    "document",
    "run",
    "validate",
    "validated",
]
