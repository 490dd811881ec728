"""The Vulkan backend: a small GL-on-Vulkan layer of our own (python `vulkan`, glslang)."""
