"""`BackendError` (and any subclass of it) is the verdict `fail`: the driver did not do what the
case asks. It may be raised only where a driver's answer was just checked; the harness's own
faults are HarnessFault (status `error`) and bad input is UsageError (one line, exit 2). An AST
scan of harness/ finds every raise of it; each allowed site says why it blames the driver."""
from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

PACKAGE = ROOT / "harness"

# (file, enclosing function) -> (how many raises there, the driver's answer each checks).
ALLOWED = {
    ("harness/backends/gl/runner.py", "GLBackend._framebuffer"):
        (1, "glCheckFramebufferStatus did not answer GL_FRAMEBUFFER_COMPLETE"),
    ("harness/backends/gl/runner.py", "GLBackend.run"):
        (1, "glGetError answered an error (PyOpenGL's GLError) for a call of the case"),
    ("harness/backends/gl/programs.py", "link"):
        (2, "GL_COMPILE_STATUS or GL_LINK_STATUS (LinkFailed) answered false for GLSL the case expects to build"),
    ("harness/backends/gl/uniforms.py", "set_uniform"):
        (1, "glGetUniformLocation answered -1 for a uniform the case's program declares and uses"),
    ("harness/backends/vk/pipelines.py", "Pipelines.get"):
        (1, "vkCreateGraphicsPipelines answered an error"),
    ("harness/backends/vk/runner.py", "VKBackend.run"):
        (1, "a Vulkan call answered an error (VkError) while the case ran"),
    ("harness/backends/vk/runner.py", "_CaseRun._check_link"):
        (1, "GL's link-time varying limit from the device's own limits: what a GL driver answers at link"),
    ("harness/backends/vk/device.py", "Device.__init__"):
        (2, "vkCreateInstance or vkEnumeratePhysicalDevices answered an error or no device"),
    ("harness/backends/vk/device.py", "Device._memory_type"):
        (1, "vkGetPhysicalDeviceMemoryProperties listed no memory type with the flags the resource needs"),
}


def blaming_classes(trees: dict[str, ast.Module]) -> set[str]:
    """BackendError and the harness's classes derived from it, by name."""
    names, grew = {"BackendError"}, True
    while grew:
        grew = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in names and any(
                        (base.id if isinstance(base, ast.Name) else getattr(base, "attr", "")) in names
                        for base in node.bases):
                    names.add(node.name)
                    grew = True
    return names


def raises(tree: ast.Module, classes: set[str]) -> list[tuple[str, int, str]]:
    """(enclosing function, line, class) of every `raise` of one of `classes` in a module."""
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, scope: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                visit(child, scope + [child.name])
                continue
            if isinstance(child, ast.Raise) and child.exc is not None:
                call = child.exc.func if isinstance(child.exc, ast.Call) else child.exc
                name = call.id if isinstance(call, ast.Name) else getattr(call, "attr", "")
                if name in classes:
                    found.append((".".join(scope), child.lineno, name))
            visit(child, scope)
    visit(tree, [])
    return found


def sites() -> dict[tuple[str, str], list[str]]:
    trees = {str(path.relative_to(ROOT)): ast.parse(path.read_text()) for path in sorted(PACKAGE.rglob("*.py"))}
    classes = blaming_classes(trees)
    found: dict[tuple[str, str], list[str]] = {}
    for path, tree in trees.items():
        for function, line, name in raises(tree, classes):
            found.setdefault((path, function), []).append(f"{path}:{line} raise {name} in {function or '<module>'}")
    return found


def test_backend_error_is_raised_only_where_a_drivers_answer_was_checked():
    found = sites()
    unexpected = [line for site, lines in found.items() if len(lines) > ALLOWED.get(site, (0, ""))[0]
                  for line in lines]
    assert not unexpected, ("BackendError (verdict `fail`, the driver's) raised for what is not a driver's answer; "
                            "raise HarnessFault (status `error`) or UsageError (bad input), or list the site in "
                            "ALLOWED with the driver's answer it checks:\n" + "\n".join(unexpected))


def test_every_allowed_site_still_raises_it():
    """A site that raises BackendError fewer times leaves (or lowers its count in) the list: it
    must not excuse a later one."""
    found = sites()
    stale = {site: (n, len(found.get(site, []))) for site, (n, _) in ALLOWED.items() if len(found.get(site, [])) < n}
    assert not stale, f"allowed sites raising BackendError fewer times now (allowed, raised): {stale}"


def test_the_scan_sees_a_raise_in_a_method_and_a_subclass():
    tree = ast.parse("class LinkFailed(BackendError):\n    pass\n"
                     "class A:\n    def f(self):\n        if x:\n            raise LinkFailed('no')\n")
    assert raises(tree, blaming_classes({"m": tree})) == [("A.f", 6, "LinkFailed")]


def test_the_root_is_in_the_place_the_scan_assumes():
    assert (Path(PACKAGE) / "backends" / "__init__.py").read_text().count("class BackendError(") == 1
