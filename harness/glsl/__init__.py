"""A small GLSL front end for the layer: glslang's preprocessor, a tokenizer, and one parsed model
of a shader's global scope (declarations with every declarator, blocks, structs, functions, the
body and returns of `main`) that every rewrite of the Vulkan backend works from.

It is not a compiler: expressions and statements stay token runs, and glslang still checks the
translated text. Only tokens.py holds regular expressions over GLSL source.
"""
