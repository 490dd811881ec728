"""harness/executor/shader_cache.py: a cache folder per concurrent child, seeded from slot 0. Pure file
and lock logic; the driver's use of the folders is measured on the GPU machine (docs/decisions.md#shader-cache-per-child)."""
import os
import subprocess
import sys

import pytest

from harness.executor import shader_cache, targets


@pytest.fixture
def environ(tmp_path):
    return {"XDG_CACHE_HOME": str(tmp_path)}


def fill(folder, text="program"):
    (folder / "GLCache" / "app").mkdir(parents=True)
    (folder / "GLCache" / "app" / "entry.bin").write_text(text)


def test_claims_the_first_free_slot_and_holds_it(environ):
    first = shader_cache.claim(environ)
    assert environ[shader_cache.VARIABLE].endswith("nvidia-shader-cache/0")
    second_env = dict(environ)
    del second_env[shader_cache.VARIABLE]
    second = shader_cache.claim(second_env)          # slot 0 is locked: the next one
    assert second_env[shader_cache.VARIABLE].endswith("nvidia-shader-cache/1")
    os.close(first)
    third_env = {"XDG_CACHE_HOME": environ["XDG_CACHE_HOME"]}
    shader_cache.claim(third_env)                    # released: slot 0 again
    assert third_env[shader_cache.VARIABLE].endswith("nvidia-shader-cache/0")
    os.close(second)


def test_a_slot_is_free_again_when_its_process_ends(environ):
    code = "import os, sys; from harness.executor import shader_cache; e = {'XDG_CACHE_HOME': sys.argv[1]}; " \
           "shader_cache.claim(e); print(e[shader_cache.VARIABLE])"
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code, environ["XDG_CACHE_HOME"]],
                             capture_output=True, text=True, check=True).stdout
        assert out.strip().endswith("nvidia-shader-cache/0")


@pytest.mark.parametrize("choice", [{shader_cache.VARIABLE: "/mine"}, {"__GL_SHADER_DISK_CACHE": "0"}])
def test_the_users_choice_stands(environ, choice):
    environ.update(choice)
    assert shader_cache.claim(environ) is None
    assert environ.get(shader_cache.VARIABLE) == choice.get(shader_cache.VARIABLE)
    assert not shader_cache.slots(environ).exists()


def test_seed_copies_slot_0_into_empty_slots_only(environ):
    root = shader_cache.slots(environ)
    fill(root / "0", "warm")
    fill(root / "2", "its own")
    assert shader_cache.seed(4, environ) == [1, 3]
    assert (root / "1" / "GLCache" / "app" / "entry.bin").read_text() == "warm"
    assert (root / "2" / "GLCache" / "app" / "entry.bin").read_text() == "its own"
    assert not list(root.glob("*/.*seeding"))
    assert shader_cache.seed(4, environ) == []       # nothing left to seed


def test_seed_leaves_slots_in_use_alone(environ):
    root = shader_cache.slots(environ)
    fill(root / "0")
    held = shader_cache._lock(root / "1")
    assert shader_cache.seed(3, environ) == [2]
    os.close(held)
    source = shader_cache._lock(root / "0")           # a child writing slot 0: no copy of it
    assert shader_cache.seed(3, environ) == []
    os.close(source)
    assert shader_cache.seed(3, environ) == [1]


def test_seed_without_a_warm_slot_0_does_nothing(environ):
    assert shader_cache.seed(8, environ) == []
    assert not shader_cache.slots(environ).exists()


def test_only_targets_that_may_load_nvidias_driver_claim():
    assert {t.name for t in targets.TARGETS.values() if t.shader_cache_slot} == \
        {"system-gl", "system-vk", "zink-system"}
