"""
attention.py: one self-attention head, trained by hand in numpy on sentences
of the Universal Declaration of Human Rights.

What it shows
-------------
Attention read as an associative memory.  Every token of a sentence asks a
question (its query), every other token offers an answer (its key), and the
asking token receives a blend of the others' contents (their values), weighted
by how well each answer fits the question.  Training shapes queries and keys so
that a token can be guessed from the tokens it is associated with.

The task is a cloze: a token may not look at itself (the diagonal of the
attention matrix is masked), so it must be predicted from the other tokens of
its sentence.

    Q = X W_Q,   K = X W_K,   V = X W_V        per sentence, X = E[tokens]
    S = Q K^T / sqrt(d_k),    S_ii = -inf      a token cannot see itself
    A = softmax(S) row by row                  each row sums to 1
    Z = A V,     P = softmax(Z W_O)            a distribution over the vocabulary
    loss = - sum_i log P[i, token_i]

No autograd: the backward pass is written out, one line answering each line
of the forward pass.

Blocks
------
[B-corpus]   the sentences, stored verbatim (no network needed)
[B-tokens]   lowercase word tokens and the sorted vocabulary
[B-model]    parameters E, W_Q, W_K, W_V, W_O and the Adam settings
[B-forward]  one sentence forward and backward
[B-train]    4000 full-corpus Adam updates
[B-display]  the trained attention matrix of the display sentence
[B-csv]      the two CSVs the entry's figures are drawn from
[B-preview]  a matplotlib preview: loss curve and heat map

Run it with `python attention.py`: it prints one line per check and writes
attention_loss.csv, attention_weights.csv and attention.png to the current
directory.  Each block defines its functions first and then, when the file
runs as a script or notebook, calls them; the glossary's build imports the
same functions, so the page and this script share one model.
"""

import re
from pathlib import Path

import numpy as np

OUT_DIR = Path(".")


# %% [B-corpus] the sentences, stored verbatim so the demo needs no network
# Articles 1, 3, 4, 5, 6, 7, 9, 13, 17, 18, 19, 24 and 26, one sentence or
# clause a line.  They repeat words ("everyone", "right", "no one shall"),
# which gives the head recurring pairs to learn.
CORPUS = """
All human beings are born free and equal in dignity and rights.
They are endowed with reason and conscience and should act towards one another in a spirit of brotherhood.
Everyone has the right to life, liberty and security of person.
No one shall be held in slavery or servitude.
Slavery and the slave trade shall be prohibited in all their forms.
No one shall be subjected to torture or to cruel, inhuman or degrading treatment or punishment.
Everyone has the right to recognition everywhere as a person before the law.
All are equal before the law and are entitled without any discrimination to equal protection of the law.
No one shall be subjected to arbitrary arrest, detention or exile.
Everyone has the right to freedom of movement and residence within the borders of each state.
Everyone has the right to own property alone as well as in association with others.
No one shall be arbitrarily deprived of his property.
Everyone has the right to freedom of thought, conscience and religion.
Everyone has the right to freedom of opinion and expression.
Everyone has the right to rest and leisure, including reasonable limitation of working hours and periodic holidays with pay.
Everyone has the right to education.
"""


# %% [B-tokens] lowercase word tokens and the sorted vocabulary
def tokenize(sentence):
    # Runs of letters only: case and punctuation go, so "Rights." is "rights".
    return re.findall(r"[a-z]+", sentence.lower())


def prepare(corpus=CORPUS):
    sentences = [tokenize(line) for line in corpus.strip().split("\n")]
    # A token attends to the *other* tokens, so a sentence needs two.
    sentences = [s for s in sentences if len(s) >= 2]
    # Sorting fixes the ids: a token's id is its row in E and its column
    # in the read-out scores.
    vocab = sorted({tok for s in sentences for tok in s})
    print(f"[B-tokens] {len(sentences)} sentences, {len(vocab)} distinct tokens")
    return {"sentences": sentences, "vocab": vocab,
            "n_sentences": len(sentences), "n_tokens": len(vocab)}


if __name__ == "__main__":
    data = prepare()


# %% [B-model] parameters E, W_Q, W_K, W_V, W_O and the Adam settings
d = 24      # embedding width
d_k = 24    # query and key width (one head, so as wide as the embedding)
d_v = 24    # value width
beta1, beta2, eps, lr = 0.9, 0.999, 1e-8, 0.02   # Adam


def init_params(V, seed=0):
    # Small Gaussian weights from a fixed seed: the same model on every run.
    np.random.seed(seed)
    randn = lambda *shape: 0.1 * np.random.randn(*shape)
    return {"E": randn(V, d),        # one embedding row per token
            "W_Q": randn(d, d_k),    # embedding -> query
            "W_K": randn(d, d_k),    # embedding -> key
            "W_V": randn(d, d_v),    # embedding -> value
            "W_O": randn(d_v, V)}    # attention output -> one score per token


# %% [B-forward] one sentence forward and backward, each backward line answering a forward line
def softmax_rows(S):
    S = S - S.max(axis=1, keepdims=True)   # the largest entry becomes 0: no overflow
    P = np.exp(S)
    return P / P.sum(axis=1, keepdims=True)


def forward_backward(params, idx, grads):
    """Loss of one sentence (token ids `idx`); adds its gradients to `grads`."""
    E, W_Q, W_K, W_V, W_O = (params[k] for k in ("E", "W_Q", "W_K", "W_V", "W_O"))
    n = len(idx)
    # forward
    X = E[idx]                                # (n, d)   the sentence's embeddings
    Q = X @ W_Q                               # (n, d_k) what each token looks for
    K = X @ W_K                               # (n, d_k) what each token offers
    Vv = X @ W_V                              # (n, d_v) what each token passes on
    S = (Q @ K.T) / np.sqrt(d_k)              # (n, n)   query-key match
    mask = np.eye(n, dtype=bool)
    S = np.where(mask, -1e9, S)               # a token may not attend to itself
    A = softmax_rows(S)                       # (n, n)   attention weights
    Z = A @ Vv                                # (n, d_v) what each token retrieves
    scores = Z @ W_O                          # (n, V)
    P = softmax_rows(scores)                  # (n, V)   predicted token
    targets = np.array(idx)
    loss = -np.log(P[np.arange(n), targets] + 1e-12).sum()

    # backward, from the last forward line to the first
    dscores = P.copy()                        # softmax + log loss: P - onehot
    dscores[np.arange(n), targets] -= 1.0
    grads["W_O"] += Z.T @ dscores             # scores = Z @ W_O
    dZ = dscores @ W_O.T
    dA = dZ @ Vv.T                            # Z = A @ Vv
    dVv = A.T @ dZ
    dS = A * (dA - (dA * A).sum(axis=1, keepdims=True))   # A = softmax_rows(S)
    dS = np.where(mask, 0.0, dS)              # the masked diagonal was a constant
    dQ = (dS @ K) / np.sqrt(d_k)              # S = Q @ K.T / sqrt(d_k)
    dK = (dS.T @ Q) / np.sqrt(d_k)
    grads["W_Q"] += X.T @ dQ                  # Q = X @ W_Q
    grads["W_K"] += X.T @ dK                  # K = X @ W_K
    grads["W_V"] += X.T @ dVv                 # Vv = X @ W_V
    dX = dQ @ W_Q.T + dK @ W_K.T + dVv @ W_V.T
    np.add.at(grads["E"], idx, dX)            # X = E[idx]; repeated tokens add up
    return loss, n


# %% [B-train] 4000 full-corpus Adam updates
EPOCHS = 4000


def train(data, epochs=EPOCHS):
    stoi = {w: i for i, w in enumerate(data["vocab"])}
    sent_idx = [[stoi[w] for w in s] for s in data["sentences"]]
    params = init_params(len(stoi))
    m = {k: np.zeros_like(p) for k, p in params.items()}    # Adam first moment
    v_ = {k: np.zeros_like(p) for k, p in params.items()}   # Adam second moment
    loss_curve = []
    for epoch in range(1, epochs + 1):
        grads = {k: np.zeros_like(p) for k, p in params.items()}
        total_loss, total_pred = 0.0, 0
        for idx in sent_idx:
            loss, n = forward_backward(params, idx, grads)
            total_loss += loss
            total_pred += n
        for k in params:
            g = grads[k] / len(sent_idx)         # mean over sentences
            m[k] = beta1 * m[k] + (1 - beta1) * g
            v_[k] = beta2 * v_[k] + (1 - beta2) * (g * g)
            mhat = m[k] / (1 - beta1 ** epoch)   # bias corrections
            vhat = v_[k] / (1 - beta2 ** epoch)
            params[k] -= lr * mhat / (np.sqrt(vhat) + eps)
        if epoch == 1 or epoch % 20 == 0:       # the curve keeps every 20th update
            loss_curve.append((epoch, total_loss / total_pred))
    initial, final = loss_curve[0][1], loss_curve[-1][1]
    print(f"[B-train] initial loss = {initial:.4f}, final loss = {final:.4f}")
    # A broken gradient would leave the loss where it started.
    assert final < initial - 0.3, "training did not reduce the loss"
    return {"params": params, "loss_curve": loss_curve, "epochs": epochs,
            "initial_loss": initial, "final_loss": final}


if __name__ == "__main__":
    model = train(data)


# %% [B-display] the trained attention matrix of the display sentence
# Article 1's first sentence: also the example of the entry's scaled
# dot-product figure.
DISPLAY = ["all", "human", "beings", "are", "born", "free",
           "and", "equal", "in", "dignity", "and", "rights"]


def display_attention(data, params):
    # The head must have trained on this sentence, not met it for the first time.
    assert DISPLAY in data["sentences"], "display sentence not found in the corpus"
    print("[B-display] display tokens:", " ".join(DISPLAY))
    stoi = {w: i for i, w in enumerate(data["vocab"])}
    X = params["E"][[stoi[w] for w in DISPLAY]]
    S = (X @ params["W_Q"]) @ (X @ params["W_K"]).T / np.sqrt(d_k)
    S = np.where(np.eye(len(DISPLAY), dtype=bool), -1e9, S)
    return softmax_rows(S)


# %% [B-csv] the two CSVs the entry's figures are drawn from
def export(data, model, out_dir=OUT_DIR):
    A = display_attention(data, model["params"])
    out_dir = Path(out_dir)
    with open(out_dir / "attention_loss.csv", "w") as f:
        f.write("iter,loss\n")
        f.writelines(f"{it},{loss:.6f}\n" for it, loss in model["loss_curve"])
    print("[B-csv] saved attention_loss.csv")
    # Long form, one row per (query, key) cell, as pgfplots' matrix plot reads it.
    with open(out_dir / "attention_weights.csv", "w") as f:
        f.write("q,k,w\n")
        f.writelines(f"{q},{k},{A[q, k]:.6f}\n"
                     for q in range(A.shape[0]) for k in range(A.shape[1]))
    print("[B-csv] saved attention_weights.csv")
    return {"display_tokens": DISPLAY}   # the heat map's tick labels


if __name__ == "__main__":
    export(data, model)


# %% [B-preview] a matplotlib preview: loss curve and heat map
def preview(csv_dir=OUT_DIR, png=OUT_DIR / "attention.png"):
    import matplotlib.pyplot as plt   # only the preview draws
    curve = np.loadtxt(Path(csv_dir) / "attention_loss.csv", delimiter=",", skiprows=1)
    cells = np.loadtxt(Path(csv_dir) / "attention_weights.csv", delimiter=",", skiprows=1)
    A = cells[:, 2].reshape(len(DISPLAY), len(DISPLAY))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(8.5, 3.6))
    ax1.plot(curve[:, 0], curve[:, 1], "-", color="tab:blue")
    ax1.set_xlabel("update")
    ax1.set_ylabel("loss per predicted token")
    ax1.set_title("training loss")
    # Row: the query token (asking); column: the key token (answering).
    im = ax2.imshow(A, cmap="Blues", vmin=0.0)
    ax2.set_xticks(range(len(DISPLAY)), DISPLAY, rotation=90, fontsize=7)
    ax2.set_yticks(range(len(DISPLAY)), DISPLAY, fontsize=7)
    ax2.set_xlabel("key token (answering)")
    ax2.set_ylabel("query token (asking)")
    ax2.set_title("learned attention weights")
    fig.colorbar(im, ax=ax2, fraction=0.046)
    fig.tight_layout()
    # No software name or date in the file: the same PNG on every run.
    fig.savefig(png, bbox_inches="tight", dpi=110, metadata={"Software": None})
    plt.close(fig)
    print(f"[B-preview] saved {Path(png).name}")


if __name__ == "__main__":
    preview()
