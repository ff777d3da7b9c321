"""Files that translate another file into another human language rank below the file they
translate, so ten translations of one string table cannot fill the list."""

from __future__ import annotations

from collections.abc import Callable

from app.search import rerank
from app.search.translations import translations
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]


def test_translation_families_in_each_layout() -> None:
    paths = [
        # Android: `values/` is the default, `values-<lang>[-r<REGION>]` its translations.
        "app/src/main/res/values/strings.xml",
        "app/src/main/res/values-fr/strings.xml",
        "app/src/main/res/values-pt-rBR/strings.xml",
        "app/src/main/res/values-b+sr+Latn/strings.xml",
        "app/src/main/res/values-night/colors.xml",  # a qualifier, not a language
        "app/src/main/res/values-v21/styles.xml",
        # Rails: the English file is the source.
        "config/locales/en.yml",
        "config/locales/de.yml",
        "config/locales/devise.en.yml",
        "config/locales/devise.nb.yml",
        # Java resource bundles, .NET resources, a README.
        "src/main/resources/messages.properties",
        "src/main/resources/messages_es.properties",
        "src/main/resources/messages_zh_CN.properties",
        "Properties/Resources.resx",
        "Properties/Resources.fr.resx",
        "README.md",
        "README.zh-CN.md",
        # Apple's localisation folders.
        "App/Base.lproj/Localizable.strings",
        "App/ja.lproj/Localizable.strings",
        # gettext: no default member, but three languages of one catalogue.
        "locale/de/LC_MESSAGES/django.po",
        "locale/fr/LC_MESSAGES/django.po",
        "locale/it/LC_MESSAGES/django.po",
    ]
    found = translations(paths)
    assert found == {
        "app/src/main/res/values-fr/strings.xml": "app/src/main/res/values/strings.xml",
        "app/src/main/res/values-pt-rBR/strings.xml": "app/src/main/res/values/strings.xml",
        "app/src/main/res/values-b+sr+Latn/strings.xml": "app/src/main/res/values/strings.xml",
        "config/locales/de.yml": "config/locales/en.yml",
        "config/locales/devise.nb.yml": "config/locales/devise.en.yml",
        "src/main/resources/messages_es.properties": "src/main/resources/messages.properties",
        "src/main/resources/messages_zh_CN.properties": "src/main/resources/messages.properties",
        "Properties/Resources.fr.resx": "Properties/Resources.resx",
        "README.zh-CN.md": "README.md",
        "App/ja.lproj/Localizable.strings": "App/Base.lproj/Localizable.strings",
        "locale/de/LC_MESSAGES/django.po": "locale/<language>/LC_MESSAGES/django.po",
        "locale/fr/LC_MESSAGES/django.po": "locale/<language>/LC_MESSAGES/django.po",
        "locale/it/LC_MESSAGES/django.po": "locale/<language>/LC_MESSAGES/django.po",
    }


def test_names_that_only_look_like_a_language_are_no_translation() -> None:
    paths = [
        "app/user.py",
        "app/user_id.py",  # `id` is Indonesian, but code names end so
        "lib/time.c",
        "lib/time_ms.c",
        "docs/append.html",
        "docs/append-to.html",  # `-` joins words
        "src/it/java/FooIT.java",  # Maven's integration tests, no English sibling
        "src/main/java/Foo.java",
        "utils/is.js",  # three two-letter modules, no English one
        "utils/to.js",
        "utils/as.js",
        "config/go.yml",  # `go` is no language
        "config/en.yml",
    ]
    assert translations(paths) == {}


def test_a_translation_ranks_below_the_file_it_translates(indexed: Indexed) -> None:
    strings = '<resources>\n  <string name="add_plant">{}</string>\n</resources>\n'
    files = {
        "res/values/strings.xml": strings.format("Add plant to my garden"),
        **{
            f"res/values-{lang}/strings.xml": strings.format(text)
            for lang, text in [
                ("fr", "Ajouter la plante au jardin"),
                ("de", "Pflanze zum Garten hinzufügen"),
                ("es", "Añadir planta al jardín"),
            ]
        },
        "src/Garden.kt": (
            "class Garden(private val dao: PlantDao) {\n"
            "    /** Adds a plant to the user's garden. */\n"
            "    suspend fun addPlant(plantId: String) {\n"
            "        dao.insert(GardenPlanting(plantId))\n"
            "    }\n"
            "}\n"
        ),
    }
    hits = indexed(files).search("where is a plant added to my garden", k=10).hits
    paths = [hit.path for hit in hits]
    translated = [hit for hit in hits if hit.path.startswith("res/values-")]
    assert translated, paths
    for hit in translated:
        signal = next(s for s in hit.explanation.signals if s.name == "translation")
        assert signal.factor == rerank.TRANSLATION_FACTOR
        assert signal.reason == "a translation of res/values/strings.xml"
        assert paths.index(hit.path) > paths.index("res/values/strings.xml")
        assert paths.index(hit.path) > paths.index("src/Garden.kt")
    source = next(hit for hit in hits if hit.path == "res/values/strings.xml")
    assert not any(s.name == "translation" for s in source.explanation.signals)
