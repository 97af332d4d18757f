"""The one thing pyproject.toml cannot say: the wheel carries the shipped content.

content/ stays at the top of the checkout (where a CONTENT_DIR pack mirrors its layout); in the
wheel it becomes the package data rules/content/, which rules/core/content.py finds beside the
code. Everything else about the package is in pyproject.toml."""

from setuptools import find_namespace_packages, setup

setup(
    packages=[*find_namespace_packages(include=["bot", "bot.*", "rules", "rules.*"]), "rules.content"],
    package_dir={"rules.content": "content"},
)
