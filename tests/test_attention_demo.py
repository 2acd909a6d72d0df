"""The attention demo's own code: tokenizer, the hand-written gradients, the seed's numbers."""
import numpy as np
import pytest
from conftest import REPO

from glossary import demo

attention = demo.load(REPO / "entries" / "attention" / "attention.py")


def test_tokenize_keeps_lowercase_letter_runs():
    assert attention.tokenize("All human beings are born free, and equal.") == \
        ["all", "human", "beings", "are", "born", "free", "and", "equal"]
    assert attention.tokenize("Everyone has the right to life, liberty...") == \
        ["everyone", "has", "the", "right", "to", "life", "liberty"]
    assert attention.tokenize("1948: — !") == []


def test_prepare_counts_sentences_and_vocabulary(capsys):
    data = attention.prepare()
    assert capsys.readouterr().out == "[B-tokens] 16 sentences, 98 distinct tokens\n"
    assert data["vocab"] == sorted(set(data["vocab"]))
    assert attention.DISPLAY in data["sentences"]
    assert (data["n_sentences"], data["n_tokens"]) == (16, 98)
    # a one-token line is dropped: a token needs another to attend to
    assert attention.prepare("Slavery.\nNo one shall.")["sentences"] == [["no", "one", "shall"]]


def loss_of(params, idx):
    grads = {k: np.zeros_like(v) for k, v in params.items()}
    return attention.forward_backward(params, idx, grads)[0], grads


@pytest.mark.parametrize("name", ["E", "W_Q", "W_K", "W_V", "W_O"])
def test_backward_matches_finite_differences(name):
    data = attention.prepare()
    stoi = {w: i for i, w in enumerate(data["vocab"])}
    idx = [stoi[w] for w in attention.DISPLAY]            # "and" occurs twice: tests the scatter-add
    params = attention.init_params(len(stoi), seed=3)
    params = {k: v * 5 for k, v in params.items()}        # larger weights: a less flat softmax
    _, grads = loss_of(params, idx)
    p = params[name]
    rows = sorted(set(idx)) if name == "E" else range(p.shape[0])   # other rows of E get no gradient
    numeric, analytic = [], []
    h = 1e-5
    for i in rows:
        for j in range(p.shape[1]):
            old = p[i, j]
            p[i, j] = old + h
            up, _ = loss_of(params, idx)
            p[i, j] = old - h
            down, _ = loss_of(params, idx)
            p[i, j] = old
            numeric.append((up - down) / (2 * h))
            analytic.append(grads[name][i, j])
    numeric, analytic = np.array(numeric), np.array(analytic)
    assert np.linalg.norm(analytic) > 1e-3, "the check needs a gradient that is not ~0"
    rel = np.linalg.norm(numeric - analytic) / (np.linalg.norm(numeric) + np.linalg.norm(analytic))
    assert rel < 1e-6, f"{name}: relative error {rel:.2e}"
    if name == "E":
        untouched = np.delete(grads["E"], sorted(set(idx)), axis=0)
        assert not untouched.any()
