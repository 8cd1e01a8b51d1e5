"""The rule pages in each language of the site: which texts a page of one language shows, and how it links.

The rule texts come from spec/i18n/<lang>/ (spec_data.Spec.translations); the generated pages' own words
(table headings, labels, the short home page) are below, per language. Whatever a language does not have yet
is shown in English inside an element marked lang="en", never mixed in silently.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from azul_conformance import markup
from azul_conformance.spec_data import LANGUAGES, Chapter, Divergence, Rule, Spec
from azul_conformance.spec_data import VERSION_NAMES as ENGLISH_VERSION_NAMES

DEFAULT = "en"
# The site's languages in the order the switcher lists them, each with its name in itself.
NAMES = {"en": "English", "fr": "Français", "de": "Deutsch", "it": "Italiano", "uk": "Українська",
         "es": "Español", "pt": "Português"}
assert set(NAMES) == {DEFAULT, *LANGUAGES}

# The generated pages' own words. A key a language lacks is shown in English, marked.
UI: dict[str, dict[str, str]] = {
    "en": {
        "because_unofficial-summary": "an unofficial summary", "because_walk-through": "a walk-through, not a rulebook",
        "because_misprint": "a slip the publisher's other versions settle",
        "because_printed-board": "the printed board settles it",
        "because_worked-example": "a worked example settles it",
        "authority_rulebook-text": "the rulebook text", "authority_rulebook-example": "a worked example in a rulebook",
        "authority_printed-board": "the printed player board", "authority_bga": "the Board Game Arena implementation",
        "authority_tournament": "tournament rules", "authority_community": "community consensus",
        "authority_project": "this project's own decision",
        "confidence_high": "high", "confidence_medium": "medium", "confidence_low": "low",
        "site_name": "Azul rules & conformance", "colon": ":",
        "home": "Home", "rules": "Rules", "divergences": "Divergences", "one_page": "The rules on one page",
        "rules_title": "The rules", "version": "Version", "what_it_does": "What it does",
        "own_words": "Its own words, where", "our_note": "Our note", "as_above": "as the rule above",
        "states": "states it", "printed": "states it, board prints it", "partly": "states part of it",
        "example": "example only", "diverges": "diverges", "silent": "silent", "missing": "not recorded",
        "why_level": "Why this level", "diverges_not_decide": "diverges, and does not decide",
        "ruling": "Ruling", "authority": "authority", "confidence": "confidence",
        "question": "Question", "decision": "Decision", "why": "Why",
        "disagree": "Versions disagree", "see_register": "See {link} in the divergence register.",
        "state_different": "{versions} state something different from this rule: see the table above.",
        "worked_examples": "Worked examples", "outcomes": "What its scenarios check",
        "unchecked": "No scenario checks this rule yet.",
        "generated": "Generated from <code>{file}</code>. Each rule keeps its ID for good; link to it as "
                     "<code>rules/{chapter}/#ID</code>.",
        "id": "ID", "rule": "Rule", "level": "Level", "scenarios": "Scenarios", "settled_by": "Settled by",
        "no_rule_yet": "no rule yet",
        "level_rule": "rule", "level_ruling": "ruling", "level_implementation-defined": "implementation-defined",
        "home_title": "The rules of Azul",
        "home_intro": "Every rule of the board game Azul as one testable statement, written by us, with what each "
                      "of the eight rulebook versions says about it, line by line, in its own words.",
        "home_english": "The conformance suite, the scenarios, the engines' reports and the reference pages are "
                        "in English: {link}.",
        "english_site": "the English site",
        "untranslated": "This text is not written in this language yet: it is shown in English.",
    },
    "fr": {
        "because_unofficial-summary": "un résumé non officiel",
        "because_walk-through": "un guide pas à pas, pas une règle",
        "because_misprint": "une erreur que les autres versions de l'éditeur corrigent",
        "because_printed-board": "le plateau imprimé tranche", "because_worked-example": "un exemple détaillé tranche",
        "authority_rulebook-text": "le texte des règles",
        "authority_rulebook-example": "un exemple détaillé des règles",
        "authority_printed-board": "le plateau de jeu imprimé", "authority_bga": "l'adaptation de Board Game Arena",
        "authority_tournament": "les règles de tournoi", "authority_community": "l'usage établi des joueurs",
        "authority_project": "la décision propre de ce projet",
        "confidence_high": "élevée", "confidence_medium": "moyenne", "confidence_low": "faible",
        "site_name": "Azul : règles et conformité", "colon": "\u00a0:",  # French sets a space before it
        "home": "Accueil", "rules": "Règles", "divergences": "Divergences", "one_page": "Les règles sur une page",
        "rules_title": "Les règles", "version": "Version", "what_it_does": "Ce qu'elle en fait",
        "own_words": "Dans son texte", "our_note": "Notre note", "as_above": "comme la règle ci-dessus",
        "states": "l'énonce", "printed": "l'énonce, le plateau l'imprime", "partly": "en énonce une partie",
        "example": "exemple seulement", "diverges": "diverge", "silent": "muette", "missing": "non relevé",
        "why_level": "Pourquoi ce niveau", "diverges_not_decide": "diverge, et ne décide pas",
        "ruling": "Décision", "authority": "autorité", "confidence": "confiance",
        "question": "Question", "decision": "Décision", "why": "Pourquoi",
        "disagree": "Les versions divergent", "see_register": "Voir {link} dans le registre des divergences.",
        "state_different": "{versions} disent autre chose que cette règle : voir le tableau ci-dessus.",
        "worked_examples": "Exemples détaillés", "outcomes": "Ce que vérifient ses scénarios",
        "unchecked": "Aucun scénario ne vérifie encore cette règle.",
        "generated": "Produit à partir de <code>{file}</code> et de <code>spec/i18n/fr/</code>. Chaque règle "
                     "garde son identifiant pour toujours ; pour y renvoyer : <code>rules/{chapter}/#ID</code>.",
        "id": "ID", "rule": "Règle", "level": "Niveau", "scenarios": "Scénarios", "settled_by": "Réglée par",
        "no_rule_yet": "pas encore de règle",
        "level_rule": "règle", "level_ruling": "décision", "level_implementation-defined": "au choix du moteur",
        "home_title": "Les règles d'Azul",
        "home_intro": "Chaque règle du jeu Azul en un énoncé vérifiable, rédigé par nous, avec ce qu'en dit "
                      "chacune des huit versions des règles, ligne par ligne, dans ses propres mots.",
        "home_english": "La suite de conformité, les scénarios, les rapports des moteurs et les pages de "
                        "référence sont en anglais : {link}.",
        "english_site": "le site en anglais",
        "untranslated": "Ce texte n'est pas encore rédigé dans cette langue : il est donné en anglais.",
    },
    "de": {
        "because_unofficial-summary": "eine inoffizielle Zusammenfassung",
        "because_walk-through": "eine Kurzanleitung, keine Spielregel",
        "because_misprint": "ein Versehen, das die anderen Fassungen des Verlags klären",
        "because_printed-board": "die gedruckte Spielerablage entscheidet",
        "because_worked-example": "ein ausgearbeitetes Beispiel entscheidet",
        "authority_rulebook-text": "der Text der Spielregel",
        "authority_rulebook-example": "ein ausgearbeitetes Beispiel einer Spielregel",
        "authority_printed-board": "die gedruckte Spielerablage", "authority_bga": "die Umsetzung auf Board Game Arena",
        "authority_tournament": "Turnierregeln", "authority_community": "der Konsens der Spielenden",
        "authority_project": "die eigene Entscheidung dieses Projekts",
        "confidence_high": "hoch", "confidence_medium": "mittel", "confidence_low": "gering",
        "site_name": "Azul: Regeln und Konformität", "colon": ":",
        "home": "Start", "rules": "Regeln", "divergences": "Abweichungen", "one_page": "Die Regeln auf einer Seite",
        "rules_title": "Die Regeln", "version": "Version", "what_it_does": "Was sie tut",
        "own_words": "Im Wortlaut", "our_note": "Unsere Anmerkung", "as_above": "wie die Regel oben",
        "states": "nennt sie", "printed": "nennt sie, die Spielerablage druckt sie", "partly": "nennt einen Teil",
        "example": "nur als Beispiel", "diverges": "weicht ab", "silent": "schweigt", "missing": "nicht erfasst",
        "why_level": "Warum diese Stufe", "diverges_not_decide": "weicht ab und entscheidet nicht",
        "ruling": "Entscheidung", "authority": "Grundlage", "confidence": "Sicherheit",
        "question": "Frage", "decision": "Entscheidung", "why": "Warum",
        "disagree": "Die Versionen weichen ab", "see_register": "Siehe {link} im Verzeichnis der Abweichungen.",
        "state_different": "{versions} sagen etwas anderes als diese Regel: siehe die Tabelle oben.",
        "worked_examples": "Ausgearbeitete Beispiele", "outcomes": "Was seine Szenarien prüfen",
        "unchecked": "Noch kein Szenario prüft diese Regel.",
        "generated": "Erzeugt aus <code>{file}</code> und <code>spec/i18n/de/</code>. Jede Regel behält ihre "
                     "ID für immer; verlinke sie als <code>rules/{chapter}/#ID</code>.",
        "id": "ID", "rule": "Regel", "level": "Stufe", "scenarios": "Szenarien", "settled_by": "Geregelt durch",
        "no_rule_yet": "noch keine Regel",
        "level_rule": "Regel", "level_ruling": "Entscheidung", "level_implementation-defined": "der Engine überlassen",
        "home_title": "Die Regeln von Azul",
        "home_intro": "Jede Regel des Brettspiels Azul als eine prüfbare Aussage, von uns formuliert, mit dem, was "
                      "jede der acht Fassungen der Spielregel dazu sagt, Zeile für Zeile, in ihren eigenen Worten.",
        "home_english": "Die Konformitätssuite, die Szenarien, die Berichte der Engines und die Referenzseiten "
                        "sind auf Englisch: {link}.",
        "english_site": "die englische Seite",
        "untranslated": "Dieser Text ist in dieser Sprache noch nicht geschrieben: er steht auf Englisch da.",
    },
    "es": {
        "because_unofficial-summary": "un resumen no oficial",
        "because_walk-through": "una guía paso a paso, no un reglamento",
        "because_misprint": "un desliz que las demás versiones de la editorial resuelven",
        "because_printed-board": "el tablero impreso lo resuelve",
        "because_worked-example": "un ejemplo desarrollado lo resuelve",
        "authority_rulebook-text": "el texto del reglamento",
        "authority_rulebook-example": "un ejemplo desarrollado de un reglamento",
        "authority_printed-board": "el tablero de jugador impreso",
        "authority_bga": "la adaptación de Board Game Arena",
        "authority_tournament": "las reglas de torneo", "authority_community": "el consenso de los jugadores",
        "authority_project": "la decisión propia de este proyecto",
        "confidence_high": "alta", "confidence_medium": "media", "confidence_low": "baja",
        "site_name": "Azul: reglas y conformidad", "colon": ":",
        "home": "Inicio", "rules": "Reglas", "divergences": "Divergencias", "one_page": "Las reglas en una página",
        "rules_title": "Las reglas", "version": "Versión", "what_it_does": "Qué hace",
        "own_words": "En su texto", "our_note": "Nuestra nota", "as_above": "como la regla",
        "states": "la enuncia", "printed": "la enuncia, el tablero la imprime", "partly": "enuncia una parte",
        "example": "solo un ejemplo", "diverges": "difiere", "silent": "no dice nada", "missing": "sin registrar",
        "why_level": "Por qué este nivel", "diverges_not_decide": "difiere, y no decide",
        "ruling": "Decisión", "authority": "autoridad", "confidence": "confianza",
        "question": "Pregunta", "decision": "Decisión", "why": "Por qué",
        "disagree": "Las versiones difieren", "see_register": "Véase {link} en el registro de divergencias.",
        "state_different": "{versions} dicen algo distinto de esta regla: véase la tabla.",
        "worked_examples": "Ejemplos desarrollados", "outcomes": "Lo que comprueban sus escenarios",
        "unchecked": "Ningún escenario comprueba aún esta regla.",
        "generated": "Generado a partir de <code>{file}</code> y de <code>spec/i18n/es/</code>. Cada regla "
                     "conserva su ID para siempre; enlázala como <code>rules/{chapter}/#ID</code>.",
        "id": "ID", "rule": "Regla", "level": "Nivel", "scenarios": "Escenarios", "settled_by": "Resuelta por",
        "no_rule_yet": "aún sin regla",
        "level_rule": "regla", "level_ruling": "decisión", "level_implementation-defined": "a elección del motor",
        "home_title": "Las reglas de Azul",
        "home_intro": "Cada regla del juego de mesa Azul como un enunciado comprobable, escrito por nosotros, con "
                      "lo que dice de ella cada una de las ocho versiones del reglamento, línea por línea, con "
                      "sus propias palabras.",
        "home_english": "La suite de conformidad, los escenarios, los informes de los motores y las páginas de "
                        "referencia están en inglés: {link}.",
        "english_site": "el sitio en inglés",
        "untranslated": "Este texto aún no está escrito en este idioma: se muestra en inglés.",
    },
    "it": {
        "because_unofficial-summary": "un riassunto non ufficiale",
        "because_walk-through": "una guida passo passo, non un regolamento",
        "because_misprint": "una svista che le altre versioni dell'editore risolvono",
        "because_printed-board": "il tabellone di gioco stampato lo risolve",
        "because_worked-example": "un esempio svolto lo risolve",
        "authority_rulebook-text": "il testo del regolamento",
        "authority_rulebook-example": "un esempio svolto di un regolamento",
        "authority_printed-board": "il tabellone di gioco stampato",
        "authority_bga": "l'adattamento di Board Game Arena",
        "authority_tournament": "le regole di torneo", "authority_community": "il consenso dei giocatori",
        "authority_project": "la decisione propria di questo progetto",
        "confidence_high": "alta", "confidence_medium": "media", "confidence_low": "bassa",
        "site_name": "Azul: regole e conformità", "colon": ":",
        "home": "Home", "rules": "Regole", "divergences": "Divergenze", "one_page": "Le regole in una pagina",
        "rules_title": "Le regole", "version": "Versione", "what_it_does": "Che cosa ne fa",
        "own_words": "Nel suo testo", "our_note": "La nostra nota", "as_above": "come la regola sopra",
        "states": "la enuncia", "printed": "la enuncia, il tabellone la stampa", "partly": "ne enuncia una parte",
        "example": "solo un esempio", "diverges": "diverge", "silent": "tace", "missing": "non registrato",
        "why_level": "Perché questo livello", "diverges_not_decide": "diverge, e non decide",
        "ruling": "Decisione", "authority": "autorità", "confidence": "fiducia",
        "question": "Domanda", "decision": "Decisione", "why": "Perché",
        "disagree": "Le versioni divergono", "see_register": "Vedi {link} nel registro delle divergenze.",
        "state_different": "{versions} dicono altro rispetto a questa regola: vedi la tabella sopra.",
        "worked_examples": "Esempi svolti", "outcomes": "Che cosa verificano i suoi scenari",
        "unchecked": "Nessuno scenario verifica ancora questa regola.",
        "generated": "Generato da <code>{file}</code> e da <code>spec/i18n/it/</code>. Ogni regola conserva "
                     "il suo ID per sempre; per rimandarvi: <code>rules/{chapter}/#ID</code>.",
        "id": "ID", "rule": "Regola", "level": "Livello", "scenarios": "Scenari", "settled_by": "Decisa da",
        "no_rule_yet": "ancora nessuna regola",
        "level_rule": "regola", "level_ruling": "decisione", "level_implementation-defined": "a scelta del motore",
        "home_title": "Le regole di Azul",
        "home_intro": "Ogni regola del gioco da tavolo Azul come un enunciato verificabile, scritto da noi, con "
                      "ciò che ne dice ciascuna delle otto versioni del regolamento, riga per riga, con le sue "
                      "parole.",
        "home_english": "La suite di conformità, gli scenari, i resoconti dei motori e le pagine di riferimento "
                        "sono in inglese: {link}.",
        "english_site": "il sito in inglese",
        "untranslated": "Questo testo non è ancora scritto in questa lingua: è mostrato in inglese.",
    },
    "uk": {
        "because_unofficial-summary": "неофіційний конспект",
        "because_walk-through": "покроковий опис, а не книга правил",
        "because_misprint": "недогляд, який виправляють інші версії видавця",
        "because_printed-board": "це вирішує надрукований планшет",
        "because_worked-example": "це вирішує розібраний приклад",
        "authority_rulebook-text": "текст книги правил",
        "authority_rulebook-example": "розібраний приклад у книзі правил",
        "authority_printed-board": "надрукований планшет гравця", "authority_bga": "реалізація на Board Game Arena",
        "authority_tournament": "турнірні правила", "authority_community": "усталена думка гравців",
        "authority_project": "власне рішення цього проєкту",
        "confidence_high": "висока", "confidence_medium": "середня", "confidence_low": "низька",
        "site_name": "Azul: правила й відповідність", "colon": ":",
        "home": "Головна", "rules": "Правила", "divergences": "Розбіжності", "one_page": "Правила на одній сторінці",
        "rules_title": "Правила", "version": "Версія", "what_it_does": "Що вона робить",
        "own_words": "У її тексті", "our_note": "Наша примітка", "as_above": "як правило вище",
        "states": "формулює його", "printed": "формулює його, планшет друкує", "partly": "формулює частину",
        "example": "лише приклад", "diverges": "розходиться", "silent": "мовчить", "missing": "не записано",
        "why_level": "Чому цей рівень", "diverges_not_decide": "розходиться й не вирішує",
        "ruling": "Рішення", "authority": "підстава", "confidence": "упевненість",
        "question": "Питання", "decision": "Рішення", "why": "Чому",
        "disagree": "Версії розходяться", "see_register": "Див. {link} у реєстрі розбіжностей.",
        "state_different": "{versions} кажуть інше, ніж це правило: див. таблицю вище.",
        "worked_examples": "Розібрані приклади", "outcomes": "Що перевіряють його сценарії",
        "unchecked": "Жоден сценарій ще не перевіряє це правило.",
        "generated": "Згенеровано з <code>{file}</code> і <code>spec/i18n/uk/</code>. Кожне правило назавжди "
                     "зберігає свій ID; посилайтеся на нього як <code>rules/{chapter}/#ID</code>.",
        "id": "ID", "rule": "Правило", "level": "Рівень", "scenarios": "Сценарії", "settled_by": "Вирішує",
        "no_rule_yet": "правила ще немає",
        "level_rule": "правило", "level_ruling": "рішення", "level_implementation-defined": "на вибір рушія",
        "home_title": "Правила гри Азул",
        "home_intro": "Кожне правило настільної гри Азул як одне твердження, яке можна перевірити, написане нами, "
                      "з тим, що каже про нього кожна з восьми версій книги правил, рядок за рядком, її власними "
                      "словами.",
        "home_english": "Набір перевірки відповідності, сценарії, звіти рушіїв і довідкові сторінки написані "
                        "англійською: {link}.",
        "english_site": "англійський сайт",
        "untranslated": "Цей текст ще не написано цією мовою: його показано англійською.",
    },
    "pt": {
        "because_unofficial-summary": "um resumo não oficial",
        "because_walk-through": "um guia passo a passo, não um livro de regras",
        "because_misprint": "um deslize que as outras versões da editora resolvem",
        "because_printed-board": "o tabuleiro impresso resolve",
        "because_worked-example": "um exemplo resolvido resolve",
        "authority_rulebook-text": "o texto do livro de regras",
        "authority_rulebook-example": "um exemplo resolvido de um livro de regras",
        "authority_printed-board": "o tabuleiro de jogador impresso",
        "authority_bga": "a adaptação do Board Game Arena",
        "authority_tournament": "as regras de torneio", "authority_community": "o consenso dos jogadores",
        "authority_project": "a decisão própria deste projeto",
        "confidence_high": "alta", "confidence_medium": "média", "confidence_low": "baixa",
        "site_name": "Azul: regras e conformidade", "colon": ":",
        "home": "Início", "rules": "Regras", "divergences": "Divergências", "one_page": "As regras numa página",
        "rules_title": "As regras", "version": "Versão", "what_it_does": "O que ela faz",
        "own_words": "No seu texto", "our_note": "Nossa nota", "as_above": "como a regra",
        "states": "a enuncia", "printed": "a enuncia, o tabuleiro a imprime", "partly": "enuncia uma parte",
        "example": "só um exemplo", "diverges": "diverge", "silent": "não diz nada", "missing": "não registrado",
        "why_level": "Por que este nível", "diverges_not_decide": "diverge, e não decide",
        "ruling": "Decisão", "authority": "autoridade", "confidence": "confiança",
        "question": "Pergunta", "decision": "Decisão", "why": "Por quê",
        "disagree": "As versões divergem", "see_register": "Veja {link} no registro de divergências.",
        "state_different": "{versions} dizem algo diferente desta regra: veja a tabela.",
        "worked_examples": "Exemplos resolvidos", "outcomes": "O que seus cenários verificam",
        "unchecked": "Nenhum cenário verifica ainda esta regra.",
        "generated": "Gerado a partir de <code>{file}</code> e de <code>spec/i18n/pt/</code>. Cada regra "
                     "conserva seu ID para sempre; crie links para ela como <code>rules/{chapter}/#ID</code>.",
        "id": "ID", "rule": "Regra", "level": "Nível", "scenarios": "Cenários", "settled_by": "Resolvida por",
        "no_rule_yet": "ainda sem regra",
        "level_rule": "regra", "level_ruling": "decisão", "level_implementation-defined": "à escolha do motor",
        "home_title": "As regras de Azul",
        "home_intro": "Cada regra do jogo de tabuleiro Azul como um enunciado verificável, escrito por nós, com "
                      "o que cada uma das oito versões do livro de regras diz dela, linha por linha, com suas "
                      "próprias palavras.",
        "home_english": "A suíte de conformidade, os cenários, os relatórios dos motores e as páginas de "
                        "referência estão em inglês: {link}.",
        "english_site": "o site em inglês",
        "untranslated": "Este texto ainda não foi escrito neste idioma: ele é mostrado em inglês.",
    },
}


# The introductions of the rule list, the one-page rulebook and the register, for the languages that have them
# (English: docgen_rules). {rule}, {ruling}, {impl}: the level badges; {states} ... {silent}: the version-form
# badges; [[path|text]]: a link to that docs page.
INTROS: dict[str, dict[str, str]] = {
    "fr": {
        "rules": "Chaque règle d'Azul en un énoncé vérifiable, dans nos propres mots, avec un identifiant stable. "
                 "Son niveau dit à quel point elle est établie :\n\n"
                 "- {rule} toutes les versions des règles qui en parlent sont d'accord ;\n"
                 "- {ruling} les versions divergent ou se taisent, et nous avons tranché, en nommant l'autorité ;\n"
                 "- {impl} un moteur peut choisir, dans des limites données.\n\n"
                 "Pour chaque règle, un tableau montre ce qu'en fait chacune des huit versions : {states} (ou "
                 "{printed} — le texte laisse les nombres au plateau imprimé ; {partly}), {example} (elle ne la "
                 "montre que par un exemple), {diverges} ou reste {silent}, avec quelques mots de la version, "
                 "tirés de chaque ligne citée, dans sa propre langue. Les numéros de ligne mènent à "
                 "[[clauses/index.md|l'index des "
                 "clauses]] (en anglais) ; chaque règle dit pourquoi son niveau est le bon, et [[versions/index.md|une "
                 "page par version]] (en anglais) dit où cette version s'écarte des règles et pourquoi. Pour lire le "
                 "jeu d'un bout à l'autre : [[rules/all.md|les règles sur une page]].",
        "one_page": "Tout Azul, règle par règle, tel que cette spécification l'énonce : les énoncés seuls, dans "
                    "l'ordre du jeu. Chaque identifiant mène à la page de la règle, avec ce qu'en dit chaque "
                    "version et, pour une {ruling}, l'autorité sur laquelle elle repose.",
        "divergences": "Les huit versions des règles ne disent pas toutes la même chose. Chaque entrée ci-dessous "
                       "dit ce qui diffère, quelle version dit quoi, et la règle (souvent une décision) qui "
                       "tranche. Quelles versions sont officielles, et pourquoi : [[versions/index.md|la page des "
                       "versions]] (en anglais).",
    },
    "de": {
        "rules": "Jede Regel von Azul als eine prüfbare Aussage, in unseren eigenen Worten, mit einer festen ID. "
                 "Ihre Stufe sagt, wie gesichert sie ist:\n\n"
                 "- {rule} jede Fassung der Spielregel, die davon spricht, stimmt überein;\n"
                 "- {ruling} die Fassungen weichen ab oder schweigen, und wir haben entschieden und nennen die "
                 "Grundlage;\n"
                 "- {impl} eine Engine darf in festen Grenzen wählen.\n\n"
                 "Zu jeder Regel zeigt eine Tabelle, was jede der acht Fassungen damit tut: {states} (oder "
                 "{printed} — der Text überlässt die Zahlen der gedruckten Spielerablage; {partly}), zeigt sie nur "
                 "{example}, {diverges} oder {silent}, mit ein paar Worten der Fassung aus jeder zitierten Zeile, "
                 "in ihrer eigenen Sprache. Die Zeilennummern führen zum [[clauses/index.md|Klauselverzeichnis]] "
                 "(englisch); jede Regel sagt, warum ihre Stufe stimmt, und [[versions/index.md|eine Seite je "
                 "Fassung]] (englisch) zeigt, wo diese Fassung von den Regeln abweicht und warum. Um das Spiel am "
                 "Stück zu lesen: [[rules/all.md|die Regeln auf einer Seite]].",
        "one_page": "Ganz Azul, Regel für Regel, wie diese Spezifikation es sagt: nur die Aussagen, in der "
                    "Reihenfolge des Spiels. Jede ID führt zur Seite der Regel, mit dem, was jede Fassung sagt, "
                    "und bei einer {ruling} mit ihrer Grundlage.",
        "divergences": "Die acht Fassungen der Spielregel sagen nicht alle dasselbe. Jeder Eintrag unten nennt, "
                       "was abweicht, welche Fassung wo steht und die Regel (meist eine Entscheidung), die es "
                       "klärt. Welche Fassungen offiziell sind und warum: [[versions/index.md|die Seite der "
                       "Fassungen]] (englisch).",
    },
    "es": {
        "rules": "Cada regla de Azul como un enunciado comprobable, con nuestras propias palabras, con un ID "
                 "estable. Su nivel dice hasta qué punto está asentada:\n\n"
                 "- {rule} todas las versiones del reglamento que hablan de ella coinciden;\n"
                 "- {ruling} las versiones difieren o callan, y hemos decidido, nombrando la autoridad;\n"
                 "- {impl} un motor puede elegir, dentro de unos límites.\n\n"
                 "Para cada regla, una tabla muestra qué hace con ella cada una de las ocho versiones: {states} "
                 "(o {printed} — el texto deja los números al tablero impreso; {partly}), {example} (la muestra "
                 "solo en un ejemplo), {diverges} o {silent}, con unas pocas palabras de la versión de cada "
                 "línea citada, en su propio idioma. Los números de línea llevan al [[clauses/index.md|índice de "
                 "cláusulas]] "
                 "(en inglés); cada regla dice por qué su nivel es el correcto, y [[versions/index.md|una página "
                 "por versión]] (en inglés) dice dónde esa versión se aparta de las reglas y por qué. Para leer el "
                 "juego de corrido: [[rules/all.md|las reglas en una página]].",
        "one_page": "Todo Azul, regla por regla, tal como lo enuncia esta especificación: solo los enunciados, en "
                    "el orden del juego. Cada ID lleva a la página de la regla, con lo que dice cada versión y, "
                    "para una {ruling}, la autoridad en que se apoya.",
        "divergences": "Las ocho versiones del reglamento no dicen todas lo mismo. Cada entrada de abajo dice qué "
                       "difiere, qué versión dice qué y la regla (casi siempre una decisión) que lo resuelve. Qué "
                       "versiones son oficiales, y por qué: [[versions/index.md|la página de versiones]] (en "
                       "inglés).",
    },
    "it": {
        "rules": "Ogni regola di Azul come un enunciato verificabile, con parole nostre, con un ID stabile. Il "
                 "suo livello dice quanto è assodata:\n\n"
                 "- {rule} tutte le versioni del regolamento che ne parlano concordano;\n"
                 "- {ruling} le versioni divergono o tacciono, e abbiamo deciso noi, nominando l'autorità;\n"
                 "- {impl} un motore può scegliere, entro certi limiti.\n\n"
                 "Per ogni regola, una tabella mostra che cosa ne fa ciascuna delle otto versioni: {states} (o "
                 "{printed}: il testo lascia i numeri al tabellone stampato; {partly}), {example} (la mostra solo "
                 "in un esempio), {diverges} o {silent}, con qualche parola della versione da ogni riga citata, "
                 "nella sua lingua. I numeri di riga portano all'[[clauses/index.md|indice delle clausole]] (in "
                 "inglese); ogni regola dice perché il suo livello è quello giusto, e [[versions/index.md|una "
                 "pagina per versione]] (in inglese) dice dove quella versione si scosta dalle regole e perché. "
                 "Per leggere il gioco dall'inizio alla fine: [[rules/all.md|le regole in una pagina]].",
        "one_page": "Tutto Azul, regola per regola, come lo enuncia questa specifica: solo gli enunciati, "
                    "nell'ordine del gioco. Ogni ID porta alla pagina della regola, con ciò che dice ogni versione "
                    "e, per una {ruling}, l'autorità su cui si fonda.",
        "divergences": "Le otto versioni del regolamento non dicono tutte la stessa cosa. Ogni voce qui sotto dice "
                       "che cosa differisce, quale versione dice che cosa e la regola (quasi sempre una decisione) "
                       "che risolve la questione. Quali versioni sono ufficiali, e perché: [[versions/index.md|la "
                       "pagina delle versioni]] (in inglese).",
    },
    "uk": {
        "rules": "Кожне правило гри Азул як одне твердження, яке можна перевірити, нашими власними словами, зі "
                 "сталим ID. Його рівень каже, наскільки воно усталене:\n\n"
                 "- {rule} усі версії книги правил, що про нього говорять, згодні;\n"
                 "- {ruling} версії розходяться або мовчать, і ми вирішили, назвавши підставу;\n"
                 "- {impl} рушій може обирати, у певних межах.\n\n"
                 "Для кожного правила таблиця показує, що з ним робить кожна з восьми версій: {states} (або "
                 "{printed} — текст лишає числа надрукованому планшету; {partly}), {example} (показує його лише "
                 "на прикладі), {diverges} чи {silent}, з кількома словами версії з кожного цитованого рядка, її "
                 "власною мовою. Номери рядків ведуть до [[clauses/index.md|покажчика положень]] (англійською); "
                 "кожне правило каже, чому його рівень правильний, а [[versions/index.md|сторінка кожної "
                 "версії]] (англійською) каже, де ця версія відходить від правил і чому. Щоб прочитати гру від "
                 "початку до кінця: [[rules/all.md|правила на одній сторінці]].",
        "one_page": "Уся гра Азул, правило за правилом, як її формулює ця специфікація: лише твердження, у "
                    "порядку гри. Кожен ID веде до сторінки правила, з тим, що каже кожна версія, а для "
                    "{ruling} — з підставою, на яку воно спирається.",
        "divergences": "Вісім версій книги правил кажуть не одне й те саме. Кожен запис нижче каже, що "
                       "розходиться, яка версія що каже, і правило (здебільшого рішення), яке це вирішує. Які "
                       "версії офіційні, і чому: [[versions/index.md|сторінка версій]] (англійською).",
    },
    "pt": {
        "rules": "Cada regra de Azul como um enunciado verificável, com nossas próprias palavras, com um ID "
                 "estável. Seu nível diz até que ponto ela está assentada:\n\n"
                 "- {rule} todas as versões do livro de regras que falam dela concordam;\n"
                 "- {ruling} as versões divergem ou se calam, e nós decidimos, nomeando a autoridade;\n"
                 "- {impl} um motor pode escolher, dentro de certos limites.\n\n"
                 "Para cada regra, uma tabela mostra o que cada uma das oito versões faz com ela: {states} "
                 "(ou {printed}: o texto deixa os números para o tabuleiro impresso; {partly}), {example} (ela "
                 "a mostra só num exemplo), {diverges} ou {silent}, com algumas palavras da versão de cada linha "
                 "citada, no seu próprio idioma. Os números de linha levam ao [[clauses/index.md|índice de "
                 "cláusulas]] (em inglês); cada regra diz por que seu nível é o correto, e [[versions/index.md|uma "
                 "página por versão]] (em inglês) diz onde essa versão se afasta das regras e por quê. Para ler o "
                 "jogo do começo ao fim: [[rules/all.md|as regras numa página]].",
        "one_page": "Todo o Azul, regra por regra, como esta especificação o enuncia: só os enunciados, na ordem "
                    "do jogo. Cada ID leva à página da regra, com o que cada versão diz e, para uma {ruling}, a "
                    "autoridade em que ela se apoia.",
        "divergences": "As oito versões do livro de regras não dizem todas a mesma coisa. Cada entrada abaixo diz "
                       "o que diverge, qual versão diz o quê e a regra (quase sempre uma decisão) que resolve a "
                       "questão. Quais versões são oficiais, e por quê: [[versions/index.md|a página das "
                       "versões]] (em inglês).",
    },
}

# The rulebook versions' names (spec_data.VERSION_NAMES in English).
VERSION_NAMES: dict[str, dict[str, str]] = {
    "fr": {"FR": "français", "DE": "allemand", "EN": "anglais", "IT": "italien", "UK": "édition ukrainienne",
           "ES": "espagnol", "PT": "guide portugais", "IT-2": "résumé italien (non officiel)"},
    "de": {"FR": "Französisch", "DE": "Deutsch", "EN": "Englisch", "IT": "Italienisch",
           "UK": "ukrainische Ausgabe", "ES": "Spanisch", "PT": "portugiesische Kurzanleitung",
           "IT-2": "italienische Zusammenfassung (inoffiziell)"},
    "es": {"FR": "francés", "DE": "alemán", "EN": "inglés", "IT": "italiano", "UK": "edición ucraniana",
           "ES": "español", "PT": "guía portuguesa", "IT-2": "resumen italiano (no oficial)"},
    "it": {"FR": "francese", "DE": "tedesco", "EN": "inglese", "IT": "italiano", "UK": "edizione ucraina",
           "ES": "spagnolo", "PT": "guida portoghese", "IT-2": "riassunto italiano (non ufficiale)"},
    "uk": {"FR": "французька", "DE": "німецька", "EN": "англійська", "IT": "італійська",
           "UK": "українське видання", "ES": "іспанська", "PT": "португальський покроковий опис",
           "IT-2": "італійський конспект (неофіційний)"},
    "pt": {"FR": "francesa", "DE": "alemã", "EN": "inglesa", "IT": "italiana", "UK": "edição ucraniana",
           "ES": "espanhola", "PT": "guia passo a passo em português", "IT-2": "resumo italiano (não oficial)"},
}


def english(text: str, block: bool = False) -> str:
    """English shown on a page of another language: marked, so that readers and tools know. (Single quotes:
    the marking may stand inside an admonition's quoted title.)"""
    tag = "div" if block else "span"
    extra = " markdown='span'" if block else ""
    return f"<{tag} lang='en'{extra}>{text}</{tag}>"


@dataclass(frozen=True)
class Texts:
    """What a page in one language says: our rule texts in it, or English, marked."""

    spec: Spec
    lang: str = DEFAULT

    def ui(self, key: str, plain: bool = False, **values: str) -> str:
        """The page's own words for `key` in the language; `plain`: no marking (a navigation title)."""
        own = UI.get(self.lang, {}).get(key)
        text = (own if own is not None else UI[DEFAULT][key]).format(**values)
        return text if own is not None or self.lang == DEFAULT or plain else english(text)

    def scenario_title(self, scenario_id: str, title: str) -> str:
        """A scenario's title (the outcome it checks): the corpus is written in English; a language gives its
        own in spec/i18n/<lang>/scenarios.yaml by scenario ID, else the English, marked. `title` is escaped."""
        own = self._translation().scenario_titles.get(scenario_id) if self._translation() else None
        return self._pick(markup.prose(own) if own else None, title)

    def source_note(self, owner: str, version: str, note: str) -> str:
        """Our note beside one version's entry of a rule or divergence (`owner`, its ID)."""
        own = self._translation().notes.get(owner, {}).get(version) if self._translation() else None
        return self._pick(own, note) if note else ""

    def basis(self, rule: Rule) -> str:
        """Who states the rule: the first line of why its level is right."""
        own = self._translation().bases.get(rule.id, (None, {}))[0] if self._translation() else None
        return self._pick(own, rule.basis.stated_by)

    def set_aside(self, rule: Rule, version: str) -> str:
        """Why a diverging version does not decide the rule: the kind of text it is, then our note."""
        aside = rule.basis.set_aside[version]
        own = self._translation().bases.get(rule.id, (None, {}))[1].get(version) if self._translation() else None
        kind = self.ui(f"because_{aside.because}") if f"because_{aside.because}" in UI[DEFAULT] else aside.because
        return f"{kind}; {self._pick(own, aside.note)}"

    def _pick(self, translated: str | None, original: str) -> str:
        if self.lang == DEFAULT:
            return original
        return translated if translated else english(original)

    def _translation(self):
        return self.spec.translations.get(self.lang)

    def rule_title(self, rule: Rule) -> str:
        text = self._translation().rules.get(rule.id) if self._translation() else None
        return self._pick(text.title if text else None, rule.title)

    def statement(self, rule: Rule) -> str:
        text = self._translation().rules.get(rule.id) if self._translation() else None
        return self._pick(text.statement if text else None, rule.statement)

    def ruling(self, rule: Rule, part: str) -> str:
        text = self._translation().rules.get(rule.id) if self._translation() else None
        original = " ".join(getattr(rule.ruling, part).split())
        return self._pick(text.ruling.get(part) if text else None, original)

    def chapter_title(self, chapter: Chapter) -> str:
        title = self._translation().chapters.get(chapter.name, (None, None))[0] if self._translation() else None
        return self._pick(title, chapter.title)

    def chapter_intro(self, chapter: Chapter) -> str:
        intro = self._translation().chapters.get(chapter.name, (None, None))[1] if self._translation() else None
        return self._pick(intro, " ".join(chapter.intro.split()))

    def divergence_title(self, divergence: Divergence) -> str:
        text = self._translation().divergences.get(divergence.id) if self._translation() else None
        return self._pick(text[0] if text else None, divergence.title)

    def divergence_summary(self, divergence: Divergence) -> str:
        text = self._translation().divergences.get(divergence.id) if self._translation() else None
        return self._pick(text[1] if text else None, divergence.summary)

    def intro(self, key: str, values: dict[str, str], link) -> str | None:
        """A page's introduction in the language (INTROS), its [[path|text]] made links by `link`; None
        where the language has none."""
        template = INTROS.get(self.lang, {}).get(key)
        if template is None:
            return None
        return re.sub(r"\[\[(\S+?)\|(.+?)\]\]", lambda m: link(m[2], m[1]), template.format(**values))

    def version_name(self, version: str) -> str:
        own = VERSION_NAMES.get(self.lang, {}).get(version)
        return own or self.note(ENGLISH_VERSION_NAMES.get(version, ""))

    def note(self, text: str) -> str:
        """Our English notes that no language has yet (a source's note, a rule's basis)."""
        return text if self.lang == DEFAULT or not text else english(text)


# The pages every language has; every other page is in English only.
TRANSLATED_PAGES = ("index.md", "rules/index.md", "rules/all.md", "divergences.md")


def translated_pages(spec: Spec) -> frozenset[str]:
    return frozenset(TRANSLATED_PAGES + tuple(f"rules/{chapter.name}.md" for chapter in spec.chapters))


def page_url(src_uri: str) -> str:
    """The URL of a page under the site's root, as mkdocs makes it (directory URLs)."""
    stem = src_uri[:-3] if src_uri.endswith(".md") else src_uri
    if stem == "index" or stem.endswith("/index"):
        stem = stem[:-len("index")]
    return stem if not stem or stem.endswith("/") else stem + "/"


@dataclass(frozen=True)
class Links:
    """Links from one generated page: relative Markdown links (checked by mkdocs) to the pages of its own
    language, and, from a page of another language, HTML links marked hreflang="en" to the English-only pages
    (the scenarios, the clause index, the versions), which that language's build does not hold."""

    page: str  # the page's src_uri, e.g. rules/offer.md
    lang: str = DEFAULT
    local: frozenset[str] = frozenset()

    def md(self, text: str, target: str, title: str | None = None, english_site: bool = False) -> str:
        """A link to `target` (a docs path and anchor); `english_site`: to the English page even where this
        language has its own."""
        path, _, anchor = target.partition("#")
        titled = f' "{title}"' if title else ""
        if self.lang == DEFAULT or (path in self.local and not english_site):
            relative = posixpath.relpath(path, posixpath.dirname(self.page) or ".")
            return f"[{text}]({relative}{'#' + anchor if anchor else ''}{titled})"
        depth = len(page_url(self.page).strip("/").split("/")) if page_url(self.page) else 0
        href = "../" * (depth + 1) + page_url(path) + (f"#{anchor}" if anchor else "")
        title_attr = f' title="{title}"' if title else ""
        return f'<a href="{href}" hreflang="en"{title_attr}>{text}</a>'
