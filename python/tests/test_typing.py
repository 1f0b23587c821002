"""The package's types: every public function and method of the pure-Python modules is
annotated (parameters and return), and the compiled module's stub (_core.pyi) names what the
module has, member by member, so that the types a checker or an editor shows are the real ones."""

import ast
import inspect
import pathlib

import gpbandit
from gpbandit import _core

PACKAGE = pathlib.Path(gpbandit.__file__).resolve().parent


def public_callables():
    for name in gpbandit.__all__:
        obj = getattr(gpbandit, name)
        if inspect.isfunction(obj):
            yield name, obj
        elif inspect.isclass(obj) and issubclass(obj, tuple):  # a NamedTuple: its fields
            missing = set(obj._fields) - set(getattr(obj, "__annotations__", {}))
            assert not missing, (name, missing)
        elif inspect.isclass(obj) and obj.__module__.startswith("gpbandit.") and \
                obj.__module__ != "gpbandit._core":
            for member, value in vars(obj).items():
                if inspect.isfunction(value) and (not member.startswith("_") or
                                                  member == "__init__"):
                    yield f"{name}.{member}", value
                elif isinstance(value, (classmethod, staticmethod)):
                    yield f"{name}.{member}", value.__func__


def test_public_python_functions_are_annotated():
    missing = []
    checked = 0
    for name, function in public_callables():
        checked += 1
        signature = inspect.signature(function)
        for parameter in signature.parameters.values():
            if parameter.name in ("self", "cls"):
                continue
            if parameter.annotation is inspect.Parameter.empty:
                missing.append(f"{name}({parameter.name})")
        if signature.return_annotation is inspect.Signature.empty:
            missing.append(f"{name} -> ?")
    assert checked > 20
    assert not missing, missing


def stub_members():
    """{name: set of member names} for each class of _core.pyi, and the module's functions."""
    tree = ast.parse((PACKAGE / "_core.pyi").read_text())
    classes, functions = {}, set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    members.add(item.target.id)
                elif isinstance(item, ast.ClassDef):  # a nested class (Optimizer.Source)
                    members.add(item.name)
            classes[node.name] = members
        elif isinstance(node, ast.FunctionDef):
            functions.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            functions.add(node.target.id)
    return classes, functions


def test_the_stub_of_the_compiled_module_matches_it():
    classes, functions = stub_members()
    runtime = {n for n in dir(_core) if not n.startswith("__") or n == "__version__"}
    stubbed = set(classes) | functions
    assert stubbed == runtime, (sorted(stubbed - runtime), sorted(runtime - stubbed))
    for name, members in classes.items():
        cls = getattr(_core, name)
        own = {m for m in vars(cls) if not m.startswith("_")}
        stubbed_own = {m for m in members if not m.startswith("_")}
        assert stubbed_own == own, (name, sorted(stubbed_own - own), sorted(own - stubbed_own))
        for special in members - stubbed_own:
            assert hasattr(cls, special), (name, special)


def test_the_package_is_marked_typed():
    assert (PACKAGE / "py.typed").is_file()
