pytest_plugins = ["harness.pytest_adapter.plugin"]
