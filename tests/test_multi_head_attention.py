"""Tests for entries/multi-head-attention/multi_head_attention.py.

The article's printed values are typed here as the article prints them and
compared with the demo's recomputation at the article's rounding (2 decimals).
"""

import contextlib
import importlib.util
import io
import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
ENTRY = ROOT / "entries" / "multi-head-attention"
DEMO = ENTRY / "multi_head_attention.py"


def load_demo():
    spec = importlib.util.spec_from_file_location("multi_head_attention", DEMO)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


mha = load_demo()


def quiet(fn, *args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn(*args)
    return result, out.getvalue()


@pytest.fixture(scope="module")
def run():
    data, out_prepare = quiet(mha.prepare)
    model, out_train = quiet(mha.train, data)
    return data, model, out_prepare + out_train


# ---- the article's tables --------------------------------------------------

def test_vocabulary_and_correction_rule():
    assert mha.ATTRS == {
        "Rock": (0, 0, 0), "Human": (0, 0, 1), "Car": (0, 1, 0),
        "Talking Tow Truck": (0, 1, 1), "Crow": (1, 0, 0),
        "Flying Superhero": (1, 0, 1), "Plane": (1, 1, 0), "Talking Planes": (1, 1, 1)}
    # The article's code prints these two (its prose once says Plane for the first).
    assert mha.apply_correction("Rock", (1, 0, 0)) == "Crow"
    assert mha.apply_correction("Human", (1, 0, 0)) == "Flying Superhero"


def test_token_vectors():
    article = {
        "Rock":             "0000 1000", "Human":       "0100 1000",
        "Crow":             "1000 1000", "Flying superhero": "1100 1000",
        "swap-flight":      "0010 0100", "swap-speech": "0001 0010",
        "keep-flight":      "0000 0100", "keep-speech": "0000 0010",
        "he-is?":           "0000 0001"}
    assert {t: tuple(int(c) for c in s if c != " ") for t, s in article.items()} == mha.TOKENS
    assert mha.embed(["Crow", "keep-flight", "swap-speech", "he-is?"]).tolist() == [
        [1, 0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 1, 0, 0],
        [0, 0, 0, 1, 0, 0, 1, 0], [0, 0, 0, 0, 0, 0, 0, 1]]
    assert len(mha.SENTENCES) == 16


def test_head_weights():
    def dense(cells):
        W = np.zeros((8, 2))
        for (r, c), v in cells.items():
            W[r, c] = v
        return W
    # Row numbers 0-based: row 8 of the article is index 7.
    assert np.array_equal(mha.W_Q_OBJ, dense({(7, 0): 8}))
    assert np.array_equal(mha.W_K_OBJ, dense({(4, 0): 1}))
    assert np.array_equal(mha.W_V_OBJ, dense({(0, 0): 1, (1, 1): 1}))
    assert np.array_equal(mha.W_Q_ACT, dense({(7, 0): 8, (7, 1): 8}))
    assert np.array_equal(mha.W_K_ACT, dense({(5, 0): 1, (6, 1): 1}))
    assert np.array_equal(mha.W_V_ACT, dense({(2, 0): 1, (3, 1): 1}))
    assert np.array_equal(mha.W_O, np.diag([1.0, 1.0, 2.0, 2.0]))


def test_keys_and_values():
    crow, sf = mha.embed(["Crow"])[0], mha.embed(["swap-flight"])[0]
    assert (crow @ mha.W_K_OBJ).tolist() == [1, 0] and (crow @ mha.W_V_OBJ).tolist() == [1, 0]
    assert (sf @ mha.W_K_ACT).tolist() == [1, 0] and (sf @ mha.W_V_ACT).tolist() == [1, 0]


def test_worked_example():
    out, concat, rows = mha.block(["Crow", "keep-flight", "swap-speech", "he-is?"])
    assert rows["object"].round(2).tolist() == [0.99, 0.0, 0.0, 0.0]
    assert rows["action"].round(2).tolist() == [0.0, 0.5, 0.5, 0.0]
    assert concat.round(2).tolist() == [0.99, 0.0, 0.0, 0.5]     # head 1 | head 2
    assert out.round(2).tolist() == [0.99, 0.0, 0.0, 1.0]        # after W_O
    # Exact values behind the rounding: s = 8 / sqrt(2) for a matching key.
    e = np.exp(8 / np.sqrt(2))
    assert rows["object"][0] == pytest.approx(e / (e + 3))
    assert rows["action"][1] == pytest.approx(e / (2 * e + 2))
    x = mha.ffn_input(out)
    assert x.tolist() == [1, 0, 0, 0, 0, 1]
    assert mha.apply_correction(mha.BITS_TO_WORD[tuple(int(b) for b in x[:3])],
                                tuple(int(b) for b in x[3:])) == "Flying Superhero"


def test_prepare_facts_and_lines():
    data, printed = quiet(mha.prepare)
    json.dumps(data)
    assert data["answer"] == "Flying Superhero"
    assert round(data["w_object"], 2) == 0.99 and round(data["w_action"], 2) == 0.5
    assert "[B-example] concat [0.99 0.00 0.00 0.50] -> after W_O [0.99 0.00 0.00 1.00]" in printed
    assert all(line.startswith("[B-") for line in printed.splitlines())


# ---- the FFN ----------------------------------------------------------------

@pytest.mark.parametrize("trained", [False, True])
def test_gradient_check(run, trained):
    X, y = mha.ffn_pairs()
    params = ({k: np.asarray(v, dtype=np.float64) for k, v in run[1]["params"].items()}
              if trained else mha.init_ffn(seed=1))
    _, grads = mha.loss_and_grads(params, X, y)
    h = 1e-5
    for name, p in params.items():
        numeric = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            old = p[i]
            p[i] = old + h
            plus, _ = mha.loss_and_grads(params, X, y)
            p[i] = old - h
            minus, _ = mha.loss_and_grads(params, X, y)
            p[i] = old
            numeric[i] = (plus - minus) / (2 * h)
        rel = np.linalg.norm(grads[name] - numeric) / (
            np.linalg.norm(grads[name]) + np.linalg.norm(numeric) + 1e-300)
        assert rel < 1e-6, (name, rel)


def test_training(run):
    _, model, printed = run
    assert model["final_loss"] < model["initial_loss"] / 100
    assert model["train_accuracy"] == 1.0
    curve = model["loss_curve"]
    assert curve[0][0] == 1 and curve[-1][0] == mha.STEPS


# ---- the whole block on every sentence in every order -----------------------

def test_accuracy_all_orders(run):
    _, model, printed = run
    params = model["params"]
    right = total = 0
    for obj, flight, speech in itertools.product(
            ["Rock", "Human", "Crow", "Flying superhero"],
            ["keep-flight", "swap-flight"], ["keep-speech", "swap-speech"]):
        truth_bits = (mha.TOKENS[obj][0] ^ (flight == "swap-flight"), 0,
                      mha.TOKENS[obj][1] ^ (speech == "swap-speech"))
        truth = mha.BITS_TO_WORD[truth_bits]
        for order in itertools.permutations([obj, flight, speech, "he-is?"]):
            out, _, _ = mha.block(list(order))
            guess = mha.WORDS[int(mha.ffn_scores(params, mha.ffn_input(out)).argmax())]
            right += guess == truth
            total += 1
    assert total == model["n_cases"] == 384
    assert right / total == model["accuracy"]
    # Threshold 1.0: every block output lies within max_gap (about 0.01) of
    # its bit, far below 0.5, so rounding gives the exact 6 bits of one of the
    # 64 training pairs, and the FFN answers all 64 right.  Anything below 1.0
    # would be a bug, not noise.
    assert model["max_gap"] < 0.5 and model["accuracy"] == 1.0
    assert model["failures"] == [] and model["n_failures"] == 0
    assert f"{right}/{total} sentence orders answered right" in printed


# ---- the build's interface and the script run -------------------------------

def test_export_after_json_round_trip(run, tmp_path):
    data, model, _ = run
    model_json = json.loads(json.dumps(
        {k: ({n: a.tolist() for n, a in v.items()} if k == "params" else v)
         for k, v in model.items()}))
    facts, printed = quiet(mha.export, json.loads(json.dumps(data)), model_json, tmp_path)
    json.dumps(facts)
    assert facts["display_tokens"] == ["Crow", "keep-flight", "swap-speech", "he-is?"]
    att = np.loadtxt(tmp_path / "mha_attention.csv", delimiter=",", skiprows=1)
    assert att[:, 0].tolist() == [0, 1, 2, 3]
    assert att[:, 1].round(2).tolist() == [0.99, 0, 0, 0]
    assert att[:, 2].round(2).tolist() == [0, 0.5, 0.5, 0]
    assert (tmp_path / "mha_ffn_loss.csv").read_text().startswith("iter,loss\n1,")
    _, printed = quiet(mha.preview, tmp_path, tmp_path / "p.png")
    assert printed == "[B-preview] saved p.png\n"


def run_script(cwd):
    proc = subprocess.run([sys.executable, str(DEMO)], cwd=cwd, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_script_run_and_determinism(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    out_a, out_b = run_script(a), run_script(b)
    assert out_a == out_b
    lines = out_a.splitlines()
    assert all(line.startswith("[B-") for line in lines)
    assert str(tmp_path) not in out_a
    for tag in ("vocab", "tokens", "heads", "example", "train", "orders", "csv", "preview"):
        assert any(line.startswith(f"[B-{tag}]") for line in lines), tag
    assert "[B-example] rounded: Crow with correction (0, 0, 1) -> Flying Superhero" in lines
    names = ["mha_attention.csv", "mha_ffn_loss.csv", "multi_head_attention.png"]
    assert sorted(p.name for p in a.iterdir()) == sorted(names)
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


# ---- the entry page ----------------------------------------------------------

def test_entry_front_matter_and_facts(run, tmp_path):
    yaml = pytest.importorskip("yaml")
    jinja2 = pytest.importorskip("jinja2")
    data, model, _ = run
    text = (ENTRY / "entry.md").read_text()
    _, head, body = text.split("---\n", 2)
    meta = yaml.safe_load(head)
    assert set(meta) == {"title", "summary", "demo", "see_also", "csv", "figures"}
    assert meta["demo"] == DEMO.name and meta["see_also"] == ["attention"]
    schema = ROOT / "workflow" / "schemas" / "entry.schema.yaml"
    if schema.is_file():                     # the build's schema, where the checkout has it
        jsonschema = pytest.importorskip("jsonschema")
        jsonschema.validate(meta, yaml.safe_load(schema.read_text()))
    facts_export, _ = quiet(mha.export, data, model, tmp_path)
    for fig in meta["figures"]:
        header = (tmp_path / fig["csv"]).read_text().splitlines()[0].split(",")
        ys = [fig["y"]] if isinstance(fig["y"], str) else fig["y"]
        assert fig["x"] in header and set(ys) <= set(header)
        if "labels" in fig:
            assert isinstance(facts_export[fig["labels"]], list)
    facts = {k: v for k, v in {**data, **model}.items() if not isinstance(v, (list, dict))}
    facts.update(facts_export)
    page = jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(body).render(**facts)
    assert "{{" not in page
