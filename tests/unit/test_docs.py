"""The project documents itself: nothing cites a spec outside the repository, and every
citation of docs/model.md or docs/api.md points at a section that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECT_DIRS = ("engine", "components", "systems", "game", "flight", "world", "levels", "examples", "assets",
                "scripts", "docs")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".json", ".sh", ".txt", ".glsl", ".cfg", ".ini"}
OUTSIDE = re.compile(r"shared/spec|MODEL\.md|ARCHITECTURE\.md|MODEL §|ARCHITECTURE §|§\s*\d")
CITATION = re.compile(r"docs/(model|api)\.md#([a-z0-9-]+)")


def project_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "pyproject.toml", ROOT / "run.sh", ROOT / "test.sh"]
    for folder in PROJECT_DIRS:
        files += [p for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES
                  and "__pycache__" not in p.parts]
    return files


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(doc: str) -> set[str]:
    text = (ROOT / "docs" / f"{doc}.md").read_text(encoding="utf-8")
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+)$", text, re.MULTILINE)}


def test_no_project_file_cites_a_spec_outside_the_repository():
    found = []
    tests = [p for p in (ROOT / "tests").rglob("*.py") if p.name != "test_docs.py"]
    for path in project_files() + tests:
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "cite docs/model.md or docs/api.md instead:\n" + "\n".join(found)


@pytest.mark.parametrize("doc", ["model", "api"])
def test_the_docs_exist_with_their_sections(doc):
    assert len(anchors(doc)) >= 5


def test_every_citation_of_the_docs_names_a_section_that_exists():
    known = {"model": anchors("model"), "api": anchors("api")}
    bad, cited = [], 0
    for path in project_files() + list((ROOT / "tests").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for m in CITATION.finditer(line):
                cited += 1
                if m.group(2) not in known[m.group(1)]:
                    bad.append(f"{path.relative_to(ROOT)}:{number}: docs/{m.group(1)}.md#{m.group(2)}")
    assert not bad, "no such section:\n" + "\n".join(bad)
    assert cited >= 20  # the code does cite them


def test_relative_links_of_the_docs_resolve():
    bad = []
    for doc in ("README.md", "docs/model.md", "docs/api.md", "examples/README.md", "levels/README.md"):
        path = ROOT / doc
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", path.read_text(encoding="utf-8")):
            if "://" not in target and not (path.parent / target).exists():
                bad.append(f"{doc}: {target}")
    assert not bad


def test_the_readme_says_how_to_run_donify_from_the_venv():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert ".venv/bin/donify" in readme and ". .venv/bin/activate" in readme
    assert "play --demo" in readme
    assert "a few seconds" not in readme
