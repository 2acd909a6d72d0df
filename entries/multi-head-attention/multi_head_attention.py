"""
multi_head_attention.py: a two-head attention block with hand-written weights,
feeding a small feed-forward network trained by hand in numpy.

What it shows
-------------
Several heads read the same sentence side by side, each with its own W_Q,
W_K and W_V, so each can look for a different kind of token.  Their outputs
are concatenated and mixed by W_O.

The toy world has eight words, each coded by three attribute bits (can fly,
has wheels, can speak).  A correction flips some of those bits: Rock with
"add flight" becomes Crow.  A sentence names an object, a flight act, a speech
act and the question "he-is?", e.g. "Crow keep-flight swap-speech he-is?",
and the answer is the object after the correction: Flying Superhero.

    per head h:  Q = X W_Q,  K = X W_K,  V = X W_V      X: (4 tokens, 8 bits)
                 A = softmax(Q K^T / sqrt(d_h))          no mask, no positions
                 Z_h = A V                               (4, 2)
    block:       out = [Z_obj | Z_act] W_O               row of he-is?, 4 numbers
    FFN:         (fly, 0, speak, swap fly, 0, swap speak) -> one of 8 words

The object head's question asks "are you an object?" and fetches the object's
(can fly, can speak); the action head's asks "are you an act?" and fetches
the two correction bits.  Their weights are written by hand; only the FFN is
trained (full-batch Adam, the backward pass written out line by line).

Blocks
------
[B-vocab]    the eight words, their attribute bits, the correction rule
[B-tokens]   the nine token vectors and the 16-sentence grammar
[B-heads]    the hand-written W_Q, W_K, W_V of both heads, and W_O
[B-example]  "Crow keep-flight swap-speech he-is?" through the block
[B-ffn]      the feed-forward network: forward and backward
[B-orders]   heads -> W_O -> FFN on every sentence in every order
[B-train]    Adam on the 64 (word, correction) pairs, then [B-orders]
[B-csv]      the two CSVs the entry's figures are drawn from
[B-preview]  a matplotlib preview: attention bars and the FFN's loss curve

Run it with `python multi_head_attention.py`: it prints one line per check
and writes mha_attention.csv (columns pos,object,action: the attention row
of he-is? in each head, pos = token position 0..3 of the display sentence),
mha_ffn_loss.csv (iter,loss) and multi_head_attention.png to the current
directory.  Each block defines its functions first and then, when the file
runs as a script or notebook, calls them; the glossary's build imports the
same functions, so the page and this script share one computation.
"""

import itertools
from pathlib import Path

import numpy as np

OUT_DIR = Path(".")


def fmt(v):
    # Vectors printed with two decimals, the article's precision.
    return "[" + " ".join(f"{x:.2f}" for x in v) + "]"


# %% [B-vocab] the eight words, their attribute bits, the correction rule
# (can fly, has wheels, can speak).  In this order the codes count 000..111.
ATTRS = {
    "Rock":              (0, 0, 0),
    "Human":             (0, 0, 1),
    "Car":               (0, 1, 0),
    "Talking Tow Truck": (0, 1, 1),
    "Crow":              (1, 0, 0),
    "Flying Superhero":  (1, 0, 1),
    "Plane":             (1, 1, 0),
    "Talking Planes":    (1, 1, 1),
}
WORDS = list(ATTRS)                       # a word's id is its place here
BITS_TO_WORD = {bits: w for w, bits in ATTRS.items()}
ADD_FLIGHT = (1, 0, 0)


def apply_correction(word, correction):
    # A 1 in the correction flips that attribute, a 0 keeps it: XOR.
    return BITS_TO_WORD[tuple(a ^ c for a, c in zip(ATTRS[word], correction))]


def check_vocab():
    assert all(ATTRS[w] == tuple(int(b) for b in f"{i:03b}") for i, w in enumerate(WORDS))
    print("[B-vocab] " + ", ".join(f"{w} {''.join(map(str, b))}" for w, b in ATTRS.items()))
    for word, expected in (("Rock", "Crow"), ("Human", "Flying Superhero")):
        out = apply_correction(word, ADD_FLIGHT)
        print(f"[B-vocab] {word} + add flight -> {out}")
        assert out == expected


# %% [B-tokens] the nine token vectors and the 16-sentence grammar
# Bits 1-4 carry content, bits 5-8 say what kind of token it is.
BIT_LABELS = ["can fly", "can speak", "swap flight", "swap speech",
              "object?", "flight act?", "speech act?", "question?"]
TOKENS = {
    #                   fly spk swF swS  obj flA spA  q
    "Rock":             (0,  0,  0,  0,   1,  0,  0,  0),
    "Human":            (0,  1,  0,  0,   1,  0,  0,  0),
    "Crow":             (1,  0,  0,  0,   1,  0,  0,  0),
    "Flying superhero": (1,  1,  0,  0,   1,  0,  0,  0),
    "swap-flight":      (0,  0,  1,  0,   0,  1,  0,  0),
    "swap-speech":      (0,  0,  0,  1,   0,  0,  1,  0),
    "keep-flight":      (0,  0,  0,  0,   0,  1,  0,  0),
    "keep-speech":      (0,  0,  0,  0,   0,  0,  1,  0),
    "he-is?":           (0,  0,  0,  0,   0,  0,  0,  1),
}
OBJECTS = ["Rock", "Human", "Crow", "Flying superhero"]
FLIGHT_ACTS = ["keep-flight", "swap-flight"]
SPEECH_ACTS = ["keep-speech", "swap-speech"]
QUESTION = "he-is?"
SENTENCES = [[o, f, s, QUESTION] for o in OBJECTS for f in FLIGHT_ACTS for s in SPEECH_ACTS]


def embed(tokens):
    return np.array([TOKENS[t] for t in tokens], dtype=float)   # (n, 8)


def expected_answer(sentence):
    # The rule, read from the token names rather than from their bits.
    obj = next(t for t in sentence if t in OBJECTS)
    correction = (int("swap-flight" in sentence), 0, int("swap-speech" in sentence))
    word = next(w for w in WORDS if w.lower() == obj.lower())   # "Flying superhero"
    return apply_correction(word, correction)


def check_tokens():
    for tok, v in TOKENS.items():
        print(f"[B-tokens] {tok:<16} {''.join(map(str, v[:4]))} {''.join(map(str, v[4:]))}")
        assert sum(v[4:]) == 1                       # exactly one kind
    for o in OBJECTS:                                # an object carries its word's fly, speak
        word = BITS_TO_WORD[(TOKENS[o][0], 0, TOKENS[o][1])]
        assert word.lower() == o.lower() and TOKENS[o][2:4] == (0, 0)
    assert [TOKENS[a][2:4] for a in ("swap-flight", "swap-speech", "keep-flight", "keep-speech")] \
        == [(1, 0), (0, 1), (0, 0), (0, 0)]          # swap-X sets its own bit, keep-X none
    print(f"[B-tokens] grammar: {len(OBJECTS)} objects x {len(FLIGHT_ACTS)} flight acts"
          f" x {len(SPEECH_ACTS)} speech acts = {len(SENTENCES)} sentences")


# %% [B-heads] the hand-written W_Q, W_K, W_V of both heads, and W_O
D_H = 2          # width of each head's queries, keys and values
SCALE = 8.0      # size of the question's query: makes the softmax nearly hard


def sparse(entries):
    """An 8 x D_H weight matrix, zero except at {(input bit label, column): value}."""
    W = np.zeros((8, D_H))
    for (label, col), val in entries.items():
        W[BIT_LABELS.index(label), col] = val
    return W


# Object head: he-is? asks "are you an object?"; objects answer yes and send
# (can fly, can speak).
W_Q_OBJ = sparse({("question?", 0): SCALE})
W_K_OBJ = sparse({("object?", 0): 1})
W_V_OBJ = sparse({("can fly", 0): 1, ("can speak", 1): 1})
# Action head: he-is? asks for both kinds of act at once; a flight act answers
# in column 0, a speech act in column 1, and each sends (swap flight, swap speech).
W_Q_ACT = sparse({("question?", 0): SCALE, ("question?", 1): SCALE})
W_K_ACT = sparse({("flight act?", 0): 1, ("speech act?", 1): 1})
W_V_ACT = sparse({("swap flight", 0): 1, ("swap speech", 1): 1})
HEADS = {"object": (W_Q_OBJ, W_K_OBJ, W_V_OBJ), "action": (W_Q_ACT, W_K_ACT, W_V_ACT)}
# The action head's weight is shared by two acts, so its values arrive halved.
W_O = np.diag([1.0, 1.0, 2.0, 2.0])


def check_heads():
    for name, Ws in HEADS.items():
        for wname, W in zip(("W_Q", "W_K", "W_V"), Ws):
            cells = ", ".join(f"{BIT_LABELS[r]}->{c}: {W[r, c]:g}" for r, c in zip(*np.nonzero(W)))
            print(f"[B-heads] {name} head {wname} (8x{D_H}) nonzero: {cells}")
    for name, tok in (("object", "Crow"), ("action", "swap-flight")):
        _, W_K, W_V = HEADS[name]
        x = embed([tok])[0]
        print(f"[B-heads] {name} head, {tok}: key {fmt(x @ W_K)}, value {fmt(x @ W_V)}")
        assert np.array_equal(x @ W_K, [1, 0]) and np.array_equal(x @ W_V, [1, 0])
    print(f"[B-heads] W_O = diag({', '.join(f'{d:g}' for d in np.diag(W_O))})")


# %% [B-example] "Crow keep-flight swap-speech he-is?" through the block
DISPLAY = ["Crow", "keep-flight", "swap-speech", "he-is?"]


def softmax_rows(S):
    S = S - S.max(axis=1, keepdims=True)   # the largest entry becomes 0: no overflow
    P = np.exp(S)
    return P / P.sum(axis=1, keepdims=True)


def head(X, W_Q, W_K, W_V):
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V        # (n, D_H) each
    A = softmax_rows(Q @ K.T / np.sqrt(D_H))   # (n, n) every token sees every token
    return A @ V, A                            # (n, D_H), (n, n)


def block(tokens):
    """he-is?'s row through both heads: (output after W_O, concat, attention rows)."""
    X = embed(tokens)
    q = tokens.index(QUESTION)
    outs, rows = [], {}
    for name, Ws in HEADS.items():
        Z, A = head(X, *Ws)
        outs.append(Z[q])
        rows[name] = A[q]
    concat = np.concatenate(outs)              # (4,) = [fly, speak | swap fly, swap speak]
    return concat @ W_O, concat, rows


def ffn_input(out, rounded=True):
    """Block output (fly, speak, swap fly, swap speak) -> the FFN's 6 inputs."""
    fly, speak, swap_fly, swap_speak = out.round() if rounded else out
    # No token has wheels, so the wheels bit and its correction are 0.
    return np.array([fly, 0.0, speak, swap_fly, 0.0, swap_speak])


def prepare():
    check_vocab()
    check_tokens()
    check_heads()
    out, concat, rows = block(DISPLAY)
    for name, expected in (("object", [0.99, 0, 0, 0]), ("action", [0, 0.5, 0.5, 0])):
        print(f"[B-example] {name} head, he-is? attends: "
              + ", ".join(f"{t} {w:.2f}" for t, w in zip(DISPLAY, rows[name])))
        assert np.allclose(rows[name].round(2), expected)
    print(f"[B-example] head outputs: object {fmt(concat[:2])}, action {fmt(concat[2:])}")
    print(f"[B-example] concat {fmt(concat)} -> after W_O {fmt(out)}")
    assert np.allclose(concat.round(2), [0.99, 0, 0, 0.5]) and np.allclose(out.round(2), [0.99, 0, 0, 1])
    x = ffn_input(out)
    word, correction = BITS_TO_WORD[tuple(int(b) for b in x[:3])], tuple(int(b) for b in x[3:])
    answer = apply_correction(word, correction)
    print(f"[B-example] rounded: {word} with correction {correction} -> {answer}")
    assert answer == "Flying Superhero" == expected_answer(DISPLAY)
    return {"words": WORDS, "sentences": SENTENCES, "display_sentence": " ".join(DISPLAY),
            "n_words": len(WORDS), "n_tokens": len(TOKENS), "n_bits": len(BIT_LABELS),
            "n_sentences": len(SENTENCES),
            "n_orders": len(list(itertools.permutations(DISPLAY))),
            "d_h": D_H, "query_scale": SCALE, "wo_action": float(W_O[2, 2]),
            "match_score": float(SCALE / np.sqrt(D_H)),
            "w_object": float(rows["object"][0]), "w_action": float(rows["action"][1]),
            "w_leak_action": float(rows["action"][0]),
            "concat_fly": float(concat[0]), "concat_swap_speech": float(concat[3]),
            "out_swap_speech": float(out[3]), "answer": answer}


if __name__ == "__main__":
    data = prepare()


# %% [B-ffn] the feed-forward network: forward and backward
N_IN, HIDDEN, N_OUT = 6, 16, len(WORDS)


def init_ffn(seed=0):
    rng = np.random.default_rng(seed)          # a fixed seed: the same network every run
    return {"W1": rng.normal(0.0, 0.5, (N_IN, HIDDEN)), "b1": np.zeros(HIDDEN),
            "W2": rng.normal(0.0, 0.5, (HIDDEN, N_OUT)), "b2": np.zeros(N_OUT)}


def ffn_pairs():
    """All 8 words x 8 corrections: inputs (64, 6), target word ids (64,)."""
    corrections = list(itertools.product((0, 1), repeat=3))
    X = [ATTRS[w] + c for w in WORDS for c in corrections]
    y = [WORDS.index(apply_correction(w, c)) for w in WORDS for c in corrections]
    return np.array(X, dtype=float), np.array(y)


def ffn_scores(params, X):
    return np.tanh(X @ params["W1"] + params["b1"]) @ params["W2"] + params["b2"]


def loss_and_grads(params, X, y):
    """Mean cross-entropy over the rows of X, and its gradient for every parameter."""
    W1, b1, W2, b2 = (params[k] for k in ("W1", "b1", "W2", "b2"))
    n, rows = len(y), np.arange(len(y))
    # forward
    Hpre = X @ W1 + b1                        # (n, HIDDEN)
    H = np.tanh(Hpre)                         # (n, HIDDEN)
    S = H @ W2 + b2                           # (n, 8) one score per word
    S = S - S.max(axis=1, keepdims=True)
    logP = S - np.log(np.exp(S).sum(axis=1, keepdims=True))   # (n, 8) log softmax
    loss = -logP[rows, y].mean()

    # backward, from the last forward line to the first
    dS = np.exp(logP)                         # softmax + log loss: P - onehot
    dS[rows, y] -= 1.0
    dS /= n                                   # the mean over rows
    dW2 = H.T @ dS                            # S = H @ W2 + b2
    db2 = dS.sum(axis=0)
    dH = dS @ W2.T
    dHpre = dH * (1.0 - H ** 2)               # H = tanh(Hpre)
    dW1 = X.T @ dHpre                         # Hpre = X @ W1 + b1
    db1 = dHpre.sum(axis=0)
    return loss, {"W1": dW1, "b1": db1, "W2": dW2, "b2": db2}


# %% [B-orders] heads -> W_O -> FFN on every sentence in every order
def evaluate(params, rounded=True):
    """(number right, failures, largest distance of a block output from its bit)."""
    n_right, failures, gap = 0, [], 0.0
    for sentence in SENTENCES:
        truth = expected_answer(sentence)
        # Attention without positions cannot tell these orders apart.
        for order in itertools.permutations(sentence):
            out, _, _ = block(list(order))
            gap = max(gap, float(np.abs(out - out.round()).max()))
            guess = WORDS[int(ffn_scores(params, ffn_input(out, rounded)).argmax())]
            if guess == truth:
                n_right += 1
            else:
                failures.append(f"{' '.join(order)} -> {guess} (expected {truth})")
    return n_right, failures, gap


# %% [B-train] Adam on the 64 (word, correction) pairs, then [B-orders]
STEPS = 400
beta1, beta2, eps, lr = 0.9, 0.999, 1e-8, 0.05   # Adam


def train(data):
    X, y = ffn_pairs()
    params = init_ffn()
    m = {k: np.zeros_like(p) for k, p in params.items()}    # Adam first moment
    v_ = {k: np.zeros_like(p) for k, p in params.items()}   # Adam second moment
    loss_curve = []
    for step in range(1, STEPS + 1):
        loss, grads = loss_and_grads(params, X, y)
        for k in params:
            m[k] = beta1 * m[k] + (1 - beta1) * grads[k]
            v_[k] = beta2 * v_[k] + (1 - beta2) * grads[k] ** 2
            mhat = m[k] / (1 - beta1 ** step)   # bias corrections
            vhat = v_[k] / (1 - beta2 ** step)
            params[k] -= lr * mhat / (np.sqrt(vhat) + eps)
        if step == 1 or step % 5 == 0:          # the curve keeps every 5th update
            loss_curve.append((step, float(loss)))
    initial, final = loss_curve[0][1], loss_curve[-1][1]
    train_acc = float((ffn_scores(params, X).argmax(axis=1) == y).mean())
    print(f"[B-train] {len(y)} pairs, {STEPS} Adam steps: loss {initial:.4f} -> {final:.4f}")
    print(f"[B-train] accuracy on the {len(y)} (word, correction) pairs = {train_acc:.4f}")
    assert final < 0.05 and train_acc == 1.0, "the FFN did not learn the correction rule"

    n_cases = len(SENTENCES) * len(list(itertools.permutations(SENTENCES[0])))
    n_right, failures, gap = evaluate(params)
    n_raw, failures_raw, _ = evaluate(params, rounded=False)
    print(f"[B-orders] rounded block output: {n_right}/{n_cases} sentence orders answered right")
    print(f"[B-orders] largest distance of a block output from its bit: {gap:.4f}")
    print(f"[B-orders] unrounded block output: {n_raw}/{n_cases} answered right")
    for f in failures + failures_raw:
        print(f"[B-orders] FAIL {f}")
    # Every bit lies within 0.5 of 0 or 1, so rounding restores the exact
    # 6 bits of a training pair, and the FFN gets all 64 pairs right.
    assert gap < 0.5 and n_right == n_cases
    return {"params": params, "loss_curve": loss_curve,
            "initial_loss": initial, "final_loss": final, "train_accuracy": train_acc,
            "n_pairs": len(y), "hidden": HIDDEN, "steps": STEPS,
            "n_cases": n_cases, "n_correct": n_right, "accuracy": n_right / n_cases,
            "n_correct_unrounded": n_raw, "accuracy_unrounded": n_raw / n_cases,
            "max_gap": gap, "n_failures": len(failures), "failures": failures,
            "failures_unrounded": failures_raw}


if __name__ == "__main__":
    model = train(data)


# %% [B-csv] the two CSVs the entry's figures are drawn from
def export(data, model, out_dir=OUT_DIR):
    _, _, rows = block(DISPLAY)
    out_dir = Path(out_dir)
    # Wide form: one row per token position, one column per head.
    with open(out_dir / "mha_attention.csv", "w") as f:
        f.write("pos,object,action\n")
        f.writelines(f"{i},{rows['object'][i]:.6f},{rows['action'][i]:.6f}\n"
                     for i in range(len(DISPLAY)))
    print("[B-csv] saved mha_attention.csv")
    with open(out_dir / "mha_ffn_loss.csv", "w") as f:
        f.write("iter,loss\n")
        f.writelines(f"{int(it)},{loss:.6f}\n" for it, loss in model["loss_curve"])
    print("[B-csv] saved mha_ffn_loss.csv")
    return {"display_tokens": DISPLAY, "failures": list(model["failures"]),
            "failures_unrounded": list(model["failures_unrounded"])}


if __name__ == "__main__":
    export(data, model)


# %% [B-preview] a matplotlib preview: attention bars and the FFN's loss curve
def preview(csv_dir=OUT_DIR, png=OUT_DIR / "multi_head_attention.png"):
    import matplotlib.pyplot as plt   # only the preview draws
    att = np.loadtxt(Path(csv_dir) / "mha_attention.csv", delimiter=",", skiprows=1)
    curve = np.loadtxt(Path(csv_dir) / "mha_ffn_loss.csv", delimiter=",", skiprows=1)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(8.5, 3.4))
    w = 0.38
    ax1.bar(att[:, 0] - w / 2, att[:, 1], w, label="object head", color="tab:blue")
    ax1.bar(att[:, 0] + w / 2, att[:, 2], w, label="action head", color="tab:orange")
    ax1.set_xticks(att[:, 0], DISPLAY, fontsize=8)
    ax1.set_ylim(0, 1.05)
    ax1.set_ylabel("attention weight of he-is?")
    ax1.set_title("where the question looks, per head")
    ax1.legend(fontsize=8)
    ax2.semilogy(curve[:, 0], curve[:, 1], "-", color="tab:blue")
    ax2.set_xlabel("Adam step")
    ax2.set_ylabel("cross-entropy (64 pairs)")
    ax2.set_title("FFN training loss")
    fig.tight_layout()
    # No software name or date in the file: the same PNG on every run.
    fig.savefig(png, bbox_inches="tight", dpi=110, metadata={"Software": None})
    plt.close(fig)
    print(f"[B-preview] saved {Path(png).name}")


if __name__ == "__main__":
    preview()
