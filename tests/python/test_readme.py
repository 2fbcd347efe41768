"""The README's commands run as written: every example of its command table and
every `matsamp …` command in its text that names its input, on small stand-ins
for the files they name (an R-MAT graph of scale 10 for scale 20, a planted
graph written in OGB's layout for the OGB folders, a 500-paper ogbn-mag shape for
ogbn_mag, ../shared/data's Cora), with
training cut to one epoch. A command the README shows that no longer parses or
runs fails here."""
import pathlib
import re
import shlex
import subprocess

import pytest

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def readme_commands():
    text = README.read_text()
    table = re.findall(r"^\| `([a-z]+ [^`]*)` \|", text, flags=re.M)  # the command table's first column
    inline = [re.sub(r"\s+", " ", c[len("matsamp "):]) for c in re.findall(r"`(matsamp [^`]*)`", text)]
    commands = [c for c in table if c.split()[0] in SUBCOMMANDS]
    commands += [c for c in inline if c == "--help" or " -g " in f" {c}"]
    assert len(table) >= 7 and commands, "the README's command table was not found"
    return list(dict.fromkeys(commands))


SUBCOMMANDS = {"generate", "convert", "info", "partition", "sample", "bench", "train"}


def stand_in(command):
    """The command as it runs here: small inputs, one training epoch."""
    command = command.replace("--scale 20", "--scale 10")
    if command.startswith("train"):
        command += " --epochs 1"
    if command.startswith("bench"):
        command += " --train-fraction 0.1"
    return command


@pytest.fixture(scope="module")
def workdir(tmp_path_factory, cli, cora_path):
    d = tmp_path_factory.mktemp("readme")
    (d / "cora.npz").symlink_to(cora_path)
    for folder, graph in (("ogbn_arxiv", "planted:300:3"), ("ogbn_products", "planted:300:3"),
                          ("ogbn_mag", "mag:500:4")):
        subprocess.run([str(cli), "convert", "-g", graph, "--format", "ogb", "-o", str(d / folder)],
                       check=True, capture_output=True)
    for command in readme_commands():  # the graph the other examples read
        if command.startswith("generate"):
            subprocess.run([str(cli)] + shlex.split(stand_in(command)), cwd=d, check=True, capture_output=True)
    return d


@pytest.mark.parametrize("command", readme_commands())
def test_the_readme_command_runs(command, cli, workdir):
    run = subprocess.run([str(cli)] + shlex.split(stand_in(command)), cwd=workdir, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, f"`matsamp {command}` failed:\n{run.stderr}"
