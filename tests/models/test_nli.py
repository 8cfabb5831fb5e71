"""The NLI adapters: kgcite's shipped ONNX model, Hugging Face models by path, TRUE-style T5 by path."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgcite.errors import ModelError
from kgcite.models.nli import HFNLI, LABELS, T5NLI, OnnxNLI, canonical_label, load_nli


def test_shipped_model_on_clear_pairs(nli: OnnxNLI) -> None:
    premises = ["A man is playing a guitar.", "A man is playing a guitar.", "Stephen Crane was born in Newark."]
    hypotheses = ["A man is playing an instrument.", "Nobody is playing a guitar.", "place of death: Newark"]
    got = [r.label for r in nli.predict(premises, hypotheses)]
    assert got == ["entailment", "contradiction", "neutral"]
    for r in nli.predict(premises, hypotheses):
        assert set(r.probs) == set(LABELS) and sum(r.probs.values()) == pytest.approx(1.0, abs=1e-4)


def test_cache_and_batching_keep_order(nli: OnnxNLI) -> None:
    nli.hits = nli.misses = 0
    pairs = [(f"The film was released in {1950 + i}.", f"release year: {1950 + i}") for i in range(40)]
    first = nli.predict([p for p, _ in pairs], [h for _, h in pairs])
    again = nli.predict([p for p, _ in pairs], [h for _, h in pairs])
    assert first == again and nli.hits == 40 and nli.misses == 40
    alone = nli(pairs[7][0], pairs[7][1])
    assert alone == first[7]
    with pytest.raises(ValueError):
        nli.predict(["a"], [])


def test_label_names_of_other_models() -> None:
    assert canonical_label("ENTAILMENT") == "entailment"
    assert canonical_label("not_entailment") == "neutral"
    assert canonical_label("CONTRADICTION") == "contradiction"
    assert canonical_label("LABEL_0") is None


def test_bad_model_paths_are_clear(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no NLI model here"):
        OnnxNLI(tmp_path).load()
    with pytest.raises(ModelError, match="not an NLI model"):
        load_nli(str(tmp_path / "missing"))


def test_true_style_t5_adapter(tmp_path: Path) -> None:
    """A tiny randomly initialised T5 with a word-level tokenizer: checks the wiring of the
    TRUE prompt and the "1"/"0" scoring, not NLI quality (no T5 NLI weights exist here)."""
    transformers = pytest.importorskip("transformers")
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {w: i for i, w in enumerate(["<pad>", "</s>", "<unk>", "1", "0", "premise:", "hypothesis:", "a", "b"])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, pad_token="<pad>", eos_token="</s>", unk_token="<unk>"
    )
    fast.save_pretrained(tmp_path)
    config = transformers.T5Config(
        vocab_size=len(vocab),
        d_model=16,
        d_ff=32,
        num_layers=1,
        num_heads=2,
        d_kv=8,
        decoder_start_token_id=0,
        pad_token_id=0,
        eos_token_id=1,
    )
    transformers.T5ForConditionalGeneration(config).save_pretrained(tmp_path)
    model = load_nli(f"t5:{tmp_path}")
    assert isinstance(model, T5NLI)
    results = model.predict(["a b", "b"], ["a", "a b"])
    for r in results:
        assert r.probs["entailment"] + r.probs["neutral"] == pytest.approx(1.0, abs=1e-5)
        assert r.probs["contradiction"] == 0.0


def test_trained_model_hf_and_onnx_agree(tmp_path: Path) -> None:
    """Train a few steps, then load the Hugging Face checkpoint and its int8 ONNX export."""
    pytest.importorskip("torch")
    from kgcite.train.cross_encoder import TrainConfig, export_onnx, train_cross_encoder
    from kgcite.train.nli_data import sick_split

    pairs = sick_split("train")[:64]
    hf_dir = train_cross_encoder(pairs, LABELS, tmp_path, TrainConfig(epochs=1, batch_size=16, max_steps=3))
    assert (tmp_path / "train_state.json").exists()
    export_onnx(hf_dir, tmp_path / "onnx")
    hf, onnx = load_nli(f"hf:{hf_dir}"), load_nli(str(tmp_path / "onnx"))
    assert isinstance(hf, HFNLI) and isinstance(onnx, OnnxNLI)
    premises, hyps = [p.premise for p in pairs[:8]], [p.hypothesis for p in pairs[:8]]
    for a, b in zip(hf.predict(premises, hyps), onnx.predict(premises, hyps), strict=True):
        for label in LABELS:
            assert a.probs[label] == pytest.approx(b.probs[label], abs=0.05)  # int8 quantisation error
