"""Word lists of the lexical judge: small, general, and kept apart from the logic that uses them."""

from __future__ import annotations

# fmt: off
STOPWORDS = frozenset(
    """a an the and or but if then than so of to in on at by for from with without within into onto
    over under about above below between among through during before after since until upon via per
    as is are was were be been being am do does did doing done have has had having will would shall
    should can could may might must it its it's this that these those there here which who whom whose
    what when where why how all any both each few more most other some such no nor not only own same
    too very just also again further once i me my we our ours you your yours he him his she her hers
    they them their theirs itself themselves himself herself ourselves yourself yourselves s t don
    now up out off down one's oneself whether while though although because however thus hence yet
    said says say text state states stated mention mentions mentioned according around approximately
    roughly nearly almost circa about also well its""".split()
)

# The closed-class words (articles, prepositions, conjunctions, pronouns, auxiliaries) of
# Spanish, Portuguese, French, Italian and German: as "on the" in English, they are in every
# source of their language, so a sentence that shares only them with the source says nothing the
# source says. Words that are also English content words ("die", "war", "hat", "son", "den", "sin",
# "con", "pour", "come") are left out: an English summary keeps them as words.
OTHER_FUNCTION_WORDS = frozenset(
    """el la los las lo un una unos unas del al y e o u que en de por para sin sobre entre es
    fue era está están ha han hay mi mis tu tus su sus se le les nos os este esta estos estas
    ese esa esos esas muy más pero como cuando donde ya también
    os um uma uns umas da das dos na nas num numa pelo pela pelos pelas ao aos com sem
    foi são é não mas seu sua seus suas meu minha
    le les une des du au aux et ou est sont été était dans sur par avec ce cette ces il elle
    ils elles nous vous je tu qui ne pas mais sa ses leur leurs à où très aussi
    il lo gli di della delle dei degli dal dalla nel nella nei nelle con su per tra fra è che
    non si sono hanno ma anche più questo questa quello quella
    der das dem des ein eine einen einem einer eines und oder ist sind wird werden wurde wurden
    mit von vom zu zum zur auf aus bei nach für im am um sich nicht auch als wie dass er sie
    wir ich ihr sein seine ihre haben kein keine noch schon sehr""".split()
) - frozenset(
    "die war hat son den con pour come sin dal a an as in is do no on so to at me we he us".split()
)
# The characters of Chinese and Japanese text that are grammar, not content: every hiragana
# (particles, inflections: が, で, た, し), the commonest Chinese function characters and the
# locatives that follow a noun ("窗台上", "家里"): a name that holds one (上海) keeps its others.
FUNCTION_CHARACTERS = frozenset(
    [chr(code) for code in range(0x3041, 0x30A0)]
    + list("的了在是和与及或也都就而之于被把从对以为等这那其个们着过吗呢吧啊并但则又还很上下里中内外")
)

# Sentence-initial capitalised words that are not names (beyond the stopwords).
COMMON_STARTS = frozenset(
    """however meanwhile today yesterday tomorrow officials researchers scientists experts analysts
    economists investors critics police doctors authorities residents students teachers workers
    people company companies government president minister governor chief report reports study
    studies data results figures sales revenue prices shares profits inflation growth plans
    earlier later last next first second third new according despite following after before under
    over during since while when where although though because if as for from by with this that
    these those there here it they he she we you our their his her its one two three several many
    most some all both each every other another such overall instead also still then now finally
    in on at of to and but or yet so nor not no yes an a the besides furthermore moreover
    additionally nevertheless nonetheless therefore thus hence consequently likewise similarly
    otherwise indeed notably importantly ultimately subsequently previously currently recently
    initially alternatively conversely accordingly regardless lastly""".split()
)
# Words that alone at the start of a sentence are no name ("Users receive a discount"), but may
# begin one ("Members of Parliament", "Past Masters"): never cut from a longer run.
LONE_OPENERS = frozenset("users customers clients members participants speakers past plus".split())

# Light synonym folding after stemming, so paraphrases meet ("firm" ~ "company"). Antonyms (below)
# are looked up as listed and by stem (see _opposites.OPPOSITES).
SYNONYM_GROUPS = (
    # ("found" alone is mostly "find" in the past: "police found a body".)
    ("establish", "founded", "founding", "founder", "start", "creat", "launch", "set-up"),
    ("find", "found"),
    ("company", "firm", "busi", "corpor", "enterpris", "compan"),
    ("increas", "rise", "rose", "risen", "grow", "grew", "grown", "growth", "climb", "jump", "surg", "soar", "boost", "gain"),
    ("decreas", "fall", "fell", "fallen", "drop", "declin", "shrink", "shrank", "plung", "slump", "reduc", "cut", "lower"),
    ("buy", "bought", "purchas", "acquir", "takeov"),
    ("sell", "sold"),
    ("win", "won", "beat"),  # (not "defeat": "their third defeat" is a loss)
    ("lose", "lost", "los"),
    ("employe", "staf", "personnel", "headcount", "worker"),
    ("ceo", "chief-executiv"),
    ("kill", "dead", "death", "die", "died"),
    ("help", "assist", "aid"),
    ("big", "larg", "huge"),
    ("small", "tiny"),
    ("begin", "began", "begun", "commenc"),
    ("end", "finish", "conclud"),
    ("show", "reveal", "demonstrat", "indicat"),
    ("car", "vehicl", "automobil"),
    ("child", "children", "kid"),
    ("doctor", "physician"),
    ("use", "utiliz"),
    ("need", "requir"),
    ("goal", "target", "objectiv"),
    ("recommend", "suggest", "advis", "advic"),
    ("say", "stat", "announc", "report", "tell", "told"),
    ("price", "cost"),
    ("shop", "store"),
    ("rule", "regul", "law"),
    ("summit", "top", "peak"),
    ("straight", "consecut", "row"),
    ("year", "annual"),
    ("percent", "percentag"),
    ("track", "monitor", "log"),
    ("reminder", "remind"),
    ("publish", "releas"),
    ("expect", "forecast", "predict", "anticip"),
    ("lead", "led", "head", "run", "chair"),
    ("hire", "recruit"),
)
SYNONYMS = {word: group[0] for group in SYNONYM_GROUPS for word in group}

ANTONYMS = (
    ("increas", "decreas"), ("win", "lose"), ("more", "less"), ("more", "fewer"), ("high", "low"),
    ("higher", "lower"), ("before", "after"), ("approv", "reject"), ("accept", "reject"),
    ("open", "clos"), ("buy", "sell"), ("profit", "loss"), ("success", "fail"),
    ("includ", "exclud"), ("allow", "ban"), ("allow", "prohibit"), ("male", "female"),
    ("largest", "smallest"), ("first", "last"), ("earli", "later"), ("positiv", "negativ"),
    ("hire", "fire"), ("north", "south"), ("east", "west"), ("strong", "weak"),
    ("major", "minor"), ("agre", "disagre"), ("support", "oppos"), ("surplus", "deficit"),
    ("import", "export"), ("above", "below"), ("maximum", "minimum"), ("inside", "outside"),
    ("wors", "better"), ("lowest", "highest"), ("big", "small"), ("begin", "end"),
    ("legal", "illegal"), ("guilty", "innocent"), ("arriv", "depart"),
    ("new", "old"), ("young", "old"), ("least", "most"),
    ("specific", "generic"), ("public", "private"),
    ("man", "woman"), ("men", "women"), ("boy", "girl"), ("brother", "sister"),
    ("husband", "wife"), ("son", "daughter"), ("father", "mother"), ("strengthen", "weaken"),
    ("improve", "worsen"), ("encourage", "discourage"), ("promote", "discourage"),
    ("extend", "shorten"), ("ahead", "behind"), ("automated", "manual"), ("rural", "urban"),
    ("rich", "poor"), ("cheap", "expensive"), ("easy", "difficult"),
    ("fast", "slow"), ("long", "short"), ("wide", "narrow"), ("broad", "narrow"),
    ("hot", "cold"), ("wet", "dry"), ("full", "empty"), ("true", "false"), ("safe", "dangerous"),
    ("internal", "external"), ("domestic", "foreign"), ("online", "offline"),
    ("temporary", "permanent"), ("optional", "mandatory"), ("add", "remove"),
    ("enable", "disable"), ("present", "absent"),
    ("presence", "absence"), ("similar", "different"),
    ("upward", "downward"), ("inflow", "outflow"), ("embrace", "avoid"), ("attack", "defend"),
    ("show", "conceal"), ("show", "hide"), ("maximize", "minimize"),
    ("overestimate", "underestimate"), ("outperform", "underperform"), ("bullish", "bearish"),
    ("optimistic", "pessimistic"), ("tighten", "loosen"), ("lend", "borrow"),
    ("buyer", "seller"), ("junior", "senior"), ("minority", "majority"), ("input", "output"),
    ("forbid", "permit"), ("confirm", "deny"), ("admit", "deny"), ("accept", "refuse"),
    ("praise", "criticize"), ("praise", "condemn"), ("deep", "shallow"), ("thick", "thin"),
    ("loud", "quiet"), ("active", "passive"),
    ("acquit", "convict"),
    ("上昇", "下落"), ("増加", "減少"), ("增加", "减少"), ("上涨", "下跌"), ("上升", "下降"),
    ("增长", "下降"), ("増え", "減っ"),
)

QUESTION_WORDS = frozenset(
    """does do did is are was were has have had can could will would should text document say says
    state states mention mentions passage source original summary true""".split()
)
NEGATIONS = frozenset(
    """not no never none nobody nothing neither nor cannot can't won't don't doesn't didn't isn't
    aren't wasn't weren't hasn't haven't hadn't""".split()
)
NEGATION_CJK = ("ない", "なかった", "ません", "ず", "不", "没", "沒", "未", "無", "无", "非")

WORD_NUMBERS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    "hundred": 100, "dozen": 12,
}
SCALES = {
    "thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9,
    "b": 1e9, "trillion": 1e12, "tn": 1e12, "万": 1e4, "億": 1e8, "亿": 1e8, "千": 1e3, "百万": 1e6,
}
MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
}
WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
SUFFIXES = (
    "ational", "ization", "fulness", "ousness", "iveness", "ations", "ements", "ement", "ation",
    "ments", "ment", "ness", "ings", "ing", "ies", "ied", "edly", "ers", "est", "ed", "es", "er",
    "ly", "s",
)
ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof sr jr st inc ltd co corp vs etc e.g i.e u.s u.k no fig approx est jan feb
    mar apr jun jul aug sep sept oct nov dec gen col lt sgt rep sen gov pres""".split()
)
# Countries by their adjectives ("Japanese" ~ "Japan") and common short names, so that a summary
# that writes "the Japanese economy" for "Japan's economy" is not taken to name another country.
DEMONYMS = {
    "afghan": "afghanistan", "african": "africa", "albanian": "albania", "algerian": "algeria",
    "american": "united states", "argentine": "argentina", "argentinian": "argentina",
    "asian": "asia", "australian": "australia", "austrian": "austria", "bangladeshi": "bangladesh",
    "belgian": "belgium", "bolivian": "bolivia", "brazilian": "brazil", "british": "united kingdom",
    "bulgarian": "bulgaria", "cambodian": "cambodia", "canadian": "canada", "chilean": "chile",
    "chinese": "china", "colombian": "colombia", "croatian": "croatia", "cuban": "cuba",
    "cypriot": "cyprus", "danish": "denmark", "dutch": "netherlands", "egyptian": "egypt",
    "english": "england", "estonian": "estonia", "ethiopian": "ethiopia", "european": "europe",
    "filipino": "philippines", "finnish": "finland", "french": "france", "georgian": "georgia",
    "german": "germany", "ghanaian": "ghana", "greek": "greece", "hungarian": "hungary",
    "icelandic": "iceland", "indian": "india", "indonesian": "indonesia", "iranian": "iran",
    "iraqi": "iraq", "irish": "ireland", "israeli": "israel", "italian": "italy",
    "japanese": "japan", "jordanian": "jordan", "kenyan": "kenya", "korean": "korea",
    "latvian": "latvia", "lebanese": "lebanon", "libyan": "libya", "lithuanian": "lithuania",
    "malaysian": "malaysia", "mexican": "mexico", "moroccan": "morocco", "nepalese": "nepal",
    "nigerian": "nigeria", "norwegian": "norway", "pakistani": "pakistan",
    "palestinian": "palestine", "peruvian": "peru", "polish": "poland", "portuguese": "portugal",
    "romanian": "romania", "russian": "russia", "saudi": "saudi arabia", "scottish": "scotland",
    "serbian": "serbia", "singaporean": "singapore", "slovak": "slovakia",
    "slovenian": "slovenia", "somali": "somalia", "spanish": "spain", "sri lankan": "sri lanka",
    "sudanese": "sudan", "swedish": "sweden", "swiss": "switzerland", "syrian": "syria",
    "taiwanese": "taiwan", "thai": "thailand", "tunisian": "tunisia", "turkish": "turkey",
    "ugandan": "uganda", "ukrainian": "ukraine", "venezuelan": "venezuela",
    "vietnamese": "vietnam", "welsh": "wales", "yemeni": "yemen", "zimbabwean": "zimbabwe",
    # Short and long names of one country.
    "us": "united states", "u.s": "united states", "u.s.": "united states", "usa": "united states",
    "america": "united states", "uk": "united kingdom", "u.k": "united kingdom",
    "u.k.": "united kingdom", "britain": "united kingdom", "great britain": "united kingdom",
    "holland": "netherlands", "czechia": "czech republic",
}
# Words that join the parts of one name ("Bank of America", "Ludwig van Beethoven").
NAME_JOINERS = ("of", "de", "del", "la", "van", "von", "der", "da", "&")
# fmt: on
