"""The settings file: where it lives, its keys and defaults, flags over the file, and bad values named."""
from __future__ import annotations

import re
import urllib.request
from pathlib import Path

import pytest

import calibration
from web import cli, settings
from web.settings import KEYS, Settings, SettingsError

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.fixture(autouse=True)
def own_folders(tmp_path, monkeypatch):
    """Each test has its own XDG folders and is not under systemd."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_means_the_defaults_in_the_xdg_folders(tmp_path):
    found = settings.load()
    assert found == Settings() and found.path is None
    assert (found.port, found.host, found.source, found.size, found.speech, found.timer) == (8000, "0.0.0.0", "auto", (1280, 720), True, 0)
    assert settings.default_path() == tmp_path / "config" / "qwixx-table" / "settings.toml"
    assert found.database_path() == tmp_path / "state" / "qwixx-table" / "qwixx.sqlite"
    assert found.calibration_path() is None


def test_under_systemd_everything_lives_in_the_state_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/qwixx-table")
    assert settings.default_path() == Path("/var/lib/qwixx-table/settings.toml")
    assert Settings().database_path() == Path("/var/lib/qwixx-table/qwixx.sqlite")
    assert calibration.default_path() == Path("/var/lib/qwixx-table/calibration.json")


def test_the_default_file_is_read_and_relative_paths_are_relative_to_it(tmp_path):
    write(settings.default_path(), 'port = 8080\nhost = "127.0.0.1"\nsource = "none"\nresolution = "1920x1080"\n'
                                   'calibration = "cal.json"\ndatabase = "games/q.sqlite"\nspeech = false\n'
                                   'timer = 30\nhost_pin = "0042"\n')
    found = settings.load()
    assert (found.port, found.host, found.source, found.size, found.speech, found.timer, found.host_pin) == \
        (8080, "127.0.0.1", "none", (1920, 1080), False, 30, "0042")
    folder = settings.default_path().parent
    assert found.path == settings.default_path()
    assert found.database_path() == folder / "games" / "q.sqlite"
    assert found.calibration_path() == folder / "cal.json"


@pytest.mark.parametrize("line, key, words", [
    ('port = "8000"', "port", 'port must be a whole number. It is "8000".'),
    ("port = 70000", "port", "port must be between 0 and 65535. It is 70000."),
    ("speech = 1", "speech", "speech must be true or false"),
    ("timer = -5", "timer", "timer must be between 0 and 600"),
    ('resolution = "big"', "resolution", 'resolution must be WIDTHxHEIGHT, such as "1280x720"'),
    ('resolution = "10x10"', "resolution", "resolution must be between 160x120 and 4608x3456"),
    ("exposure = -6", "exposure", "exposure must be between -4 and 4 stops"),
    ('exposure = "-2"', "exposure", "exposure must be a number"),
    ("host_pin = 123456", "host_pin", 'host_pin must be 4 to 12 digits in quotes'),
    ('host_pin = "12a4"', "host_pin", 'host_pin must be 4 to 12 digits in quotes'),
    ('host = "my host"', "host", "host has characters that are not allowed"),
    ('database = 3', "database", 'database must be a file name in quotes'),
    ("prot = 80", "prot", "unknown key 'prot' (did you mean 'port'?)"),
])
def test_a_bad_value_is_refused_naming_its_key(tmp_path, line, key, words):
    path = write(tmp_path / "bad.toml", line + "\n")
    with pytest.raises(SettingsError) as refused:
        settings.load(path)
    assert refused.value.key == key
    assert str(refused.value).startswith(f"{path}: ") and words in str(refused.value)


def test_a_wrong_pin_is_not_repeated_in_the_message(tmp_path):
    path = write(tmp_path / "bad.toml", 'host_pin = "98765x"\n')
    with pytest.raises(SettingsError) as refused:
        settings.load(path)
    assert "98765x" not in str(refused.value)


def test_a_file_that_is_not_toml_says_where(tmp_path):
    path = write(tmp_path / "bad.toml", "port = 8000\nspeech = yes\n")
    with pytest.raises(SettingsError, match=r"not a valid settings file: .*line 2"):
        settings.load(path)


def test_a_missing_config_file_is_an_error_but_a_missing_default_is_not(tmp_path):
    with pytest.raises(SettingsError, match="no such settings file"):
        settings.load(tmp_path / "nowhere.toml")
    assert settings.load() == Settings()


def test_flags_win_over_the_file(tmp_path):
    path = write(tmp_path / "settings.toml", 'port = 8080\nsource = "demo"\ntimer = 20\n')
    parser = cli.build_parser()
    args = parser.parse_args(["serve", "--config", str(path), "--port", "9000"])
    found = settings.for_command(args)
    assert (found.port, found.source, found.timer) == (9000, "demo", 20)
    write(path, "exposure = -1\n")
    assert settings.for_command(parser.parse_args(["calibrate", "--config", str(path)])).exposure == -1.0
    args = parser.parse_args(["calibrate", "--config", str(path), "--exposure", "-2.5"])
    assert settings.for_command(args).exposure == -2.5
    args = parser.parse_args(["serve", "--config", str(path), "--resolution", "640x40"])
    with pytest.raises(SettingsError, match="--resolution must be between") as refused:
        settings.for_command(args)
    assert refused.value.key == "resolution"


def test_serve_stops_on_a_bad_setting_with_ex_config(tmp_path, capsys):
    path = write(tmp_path / "settings.toml", "port = 8000\ntimer = 9999\n")
    assert cli.main(["serve", "--config", str(path)]) == settings.EX_CONFIG == 78
    assert "timer must be between 0 and 600" in capsys.readouterr().err


def test_the_example_file_is_every_default(tmp_path):
    text = settings.example()
    uncommented = re.sub(r"^#(\w+ = )", r"\1", text, flags=re.MULTILINE)
    loaded = settings.load(write(tmp_path / "example.toml", uncommented))
    assert loaded == Settings()
    assert [key.name for key in KEYS] == re.findall(r"^(\w+) = ", uncommented, flags=re.MULTILINE)


def test_the_settings_command_shows_where_they_come_from(tmp_path, capsys):
    path = write(tmp_path / "settings.toml", "port = 8123\n")
    assert cli.main(["settings", "--config", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"# from {path}" in out and "port = 8123" in out and 'source = "auto"' in out


def test_a_file_saved_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_bytes(b"\xef\xbb\xbfport = 9000\n")
    assert settings.load(path).port == 9000


def test_the_settings_command_prints_toml_that_loads_back(tmp_path, capsys):
    import tomllib

    source = 'a\nb\t"c" \\d\x00\x7f\x1b é'
    assert tomllib.loads(f"source = {settings.toml_value(source)}") == {"source": source}
    path = write(tmp_path / "settings.toml", f"source = {settings.toml_value(source)}\nport = 8123\n")
    assert cli.main(["settings", "--config", str(path)]) == 0
    printed = write(tmp_path / "printed.toml", capsys.readouterr().out)
    loaded = settings.load(printed)
    assert (loaded.source, loaded.port) == (source, 8123)


def test_the_readme_documents_every_key_with_its_default():
    readme = README.read_text(encoding="utf-8")
    for key in KEYS:
        row = re.search(rf"^\| `{key.name}` \| `([^`]*)` \|", readme, flags=re.MULTILINE)
        assert row, f"README.md has no row for the settings key {key.name}"
        assert row[1] == settings.toml_value(key.default), key.name


def test_serve_runs_with_the_file_it_is_given(tmp_path):
    from tests.serve_process import Server

    path = write(tmp_path / "settings.toml", 'host_pin = "0815"\nspeech = false\ntimer = 45\n')
    server = Server(tmp_path, args=("--config", str(path)))
    server.start()
    try:
        assert server.pin == "0815"
        assert server.state()["address"] == f"http://127.0.0.1:{server.port}/"
        host = server.host()  # the PIN from the file unlocks
        assert host.get("/api/me")["host"] is True
        with urllib.request.urlopen(f"{server.url}/table") as page:
            assert 'id="speech-toggle" data-default="off"' in page.read().decode()
        with urllib.request.urlopen(f"{server.url}/setup") as page:
            assert re.search(r'<option value="45"\s+selected>', page.read().decode())
    finally:
        server.stop()
    assert f"settings: {path}" in server.output()


def test_the_name_address_is_offered_only_where_it_resolves(monkeypatch):
    from web.commands import serve

    monkeypatch.setattr(serve, "lan_address", lambda: "192.168.1.20")
    monkeypatch.setattr(serve.socket, "gethostname", lambda: "qwixx")
    monkeypatch.setattr(serve, "_resolves", lambda name: ["192.168.1.20"] if name == "qwixx.local" else [])
    assert serve.addresses("0.0.0.0", 8000) == ("http://192.168.1.20:8000/", "http://qwixx.local:8000/")
    monkeypatch.setattr(serve, "_resolves", lambda name: [])
    assert serve.addresses("0.0.0.0", 8000) == ("http://192.168.1.20:8000/", None)
    assert serve.addresses("127.0.0.1", 8001) == ("http://127.0.0.1:8001/", None)


def test_a_new_host_pin_signs_out_every_host_browser(tmp_path):
    from web.app import create_app

    database = str(tmp_path / "q.sqlite")
    app = create_app({"TESTING": True, "DATABASE": database, "HOST_PIN": "1111"})
    host = app.test_client()
    assert host.post("/api/host", json={"pin": "1111"}).status_code == 200
    assert host.get("/api/me").json["host"] is True
    app.extensions["qwixx"].store.close()
    same = create_app({"TESTING": True, "DATABASE": database, "HOST_PIN": "1111"})
    assert same.test_client().get("/api/me").json["host"] is False  # a stranger is no host
    with same.test_client() as again:
        again.set_cookie(*_host_cookie(host))
        assert again.get("/api/me").json["host"] is True  # the same PIN at the next start: still signed in
    same.extensions["qwixx"].store.close()
    changed = create_app({"TESTING": True, "DATABASE": database, "HOST_PIN": "2222"})
    with changed.test_client() as again:
        again.set_cookie(*_host_cookie(host))
        assert again.get("/api/me").json["host"] is False


def _host_cookie(client) -> tuple[str, str]:
    from web.auth import HOST_COOKIE

    return HOST_COOKIE, client.get_cookie(HOST_COOKIE).value


def test_the_camera_commands_read_the_settings_too(tmp_path, capsys):
    from tests.test_watch import FILM

    path = write(tmp_path / "settings.toml", f'source = "{FILM}"\n')
    assert cli.main(["watch", "--config", str(path), "--json"]) == 0
    from_settings = capsys.readouterr().out
    assert cli.main(["watch", "--source", str(FILM), "--json"]) == 0
    assert from_settings == capsys.readouterr().out and '"roll-started"' in from_settings
    write(path, 'source = "demo"\ncalibration = "missing.json"\n')
    assert cli.main(["watch", "--config", str(path)]) == 1
    assert str(tmp_path / "missing.json") in capsys.readouterr().err  # relative to the settings file
    write(path, "resolution = 1280\n")
    for command in ("calibrate", "watch"):  # a bad setting stops them as it stops serve (the README's exit status)
        assert cli.main([command, "--config", str(path)]) == settings.EX_CONFIG
        assert "resolution must be WIDTHxHEIGHT" in capsys.readouterr().err


def test_without_a_default_route_the_address_is_an_interfaces_own(monkeypatch):
    """A Pi that is its own Wi-Fi hotspot has no default route: the QR code must still hold an address phones reach."""
    from web.commands import serve

    routed = serve.lan_address()
    found = serve.interface_addresses()
    assert not any(address.startswith("127.") for address in found)
    if routed != "127.0.0.1":  # a machine with a network: its routed address is one of its interfaces'
        assert routed in found

    def unreachable(self, address):
        raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(serve.socket.socket, "connect", unreachable)
    assert serve.lan_address() == (found or ["127.0.0.1"])[0]
