"""The two compilers of the core: to Polars expressions and to sqlglot trees.

Each has the same small file set: ``namespace.py`` (the
:class:`framemetrics.core.namespace.Namespace` of its engine) and the stages
built on it. Neither imports the other.
"""
