#!/usr/bin/env python3
"""An English -> German-like corpus whose subordinate clauses put the verb last, with gold links.

    python3 bench/verb_final_corpus.py SEED PAIRS OUT      # writes OUT.tsv and OUT.align

"you know that the woman sees the ball" -> "du weißt dass die frau den ball sieht": main
clauses keep the English order (30%), "dass" clauses (50%) and "weil" clauses (20%) move the
verb to the end, so the verb's link crosses the object's. OUT.align has one line of Pharaoh
links ("i-j", word i of the source to word j of the target) per line of OUT.tsv. Used by
bench/measure-defaults.sh (docs/defaults.md).
"""
import random
import sys

seed, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
r = random.Random(seed)
subj = [("the man","der mann"),("the woman","die frau"),("the child","das kind"),("the dog","der hund"),
        ("the cat","die katze"),("the teacher","die lehrerin"),("the boy","der junge"),("the girl","das mädchen"),
        ("tom","tom"),("anna","anna"),("the farmer","der bauer"),("the doctor","der arzt")]
obj = [("the ball","den ball"),("the book","das buch"),("the car","das auto"),("the apple","den apfel"),
       ("the letter","den brief"),("the house","das haus"),("the cake","den kuchen"),("the picture","das bild"),
       ("the door","die tür"),("the bird","den vogel"),("the garden","den garten"),("the song","das lied")]
verb = [("sees","sieht"),("finds","findet"),("buys","kauft"),("reads","liest"),("likes","mag"),
        ("hears","hört"),("takes","nimmt"),("paints","malt"),("opens","öffnet"),("wants","will"),("sells","verkauft"),("draws","zeichnet")]
adj = [("big","große"),("small","kleine"),("old","alte"),("red","rote"),("new","neue")]
matrix = [("you know that","du weißt dass"),("i think that","ich denke dass"),("he says that","er sagt dass"),
          ("we hear that","wir hören dass"),("she believes that","sie glaubt dass"),("they see that","sie sehen dass")]
intrans = [("laughs","lacht"),("sleeps","schläft"),("waits","wartet"),("sings","singt")]
def np(pair, use_adj):
    en, de = pair[0].split(), pair[1].split()
    if use_adj and len(en) == 2:
        a = r.choice(adj)
        en = [en[0], a[0], en[1]]; de = [de[0], a[1], de[1]]
        return en, de, [(0,0),(1,1),(2,2)]
    return en, de, [(i,i) for i in range(len(en))]
def clause(final):
    s_en, s_de, s_l = np(r.choice(subj), r.random() < 0.3)
    o_en, o_de, o_l = np(r.choice(obj), r.random() < 0.3)
    v_en, v_de = r.choice(verb)
    en = s_en + [v_en] + o_en
    links = list(s_l)
    vi = len(s_en)
    if final:
        de = s_de + o_de + [v_de]
        links += [(vi+1+a, len(s_de)+b) for a, b in o_l] + [(vi, len(s_de)+len(o_de))]
    else:
        de = s_de + [v_de] + o_de
        links += [(vi, len(s_de))] + [(vi+1+a, len(s_de)+1+b) for a, b in o_l]
    return en, de, links
seen = set(); pairs = []
while len(pairs) < n:
    k = r.random()
    if k < 0.3:
        en, de, links = clause(False)
    elif k < 0.8:
        m_en, m_de = [w.split() for w in r.choice(matrix)]
        c_en, c_de, c_l = clause(True)
        en = m_en + c_en; de = m_de + c_de
        links = [(i,i) for i in range(len(m_en))] + [(a+len(m_en), b+len(m_de)) for a, b in c_l]
    else:
        s_en, s_de, s_l = np(r.choice(subj), r.random() < 0.3)
        iv = r.choice(intrans)
        c_en, c_de, c_l = clause(True)
        en = s_en + [iv[0], "because"] + c_en
        de = s_de + [iv[1], "weil"] + c_de
        m = len(s_en) + 2
        links = list(s_l) + [(len(s_en), len(s_de)), (len(s_en)+1, len(s_de)+1)] + [(a+m, b+m) for a, b in c_l]
    key = " ".join(en)
    if key in seen: continue
    seen.add(key); pairs.append((en, de, sorted(links)))
with open(out + ".tsv", "w") as f, open(out + ".align", "w") as g:
    for en, de, links in pairs:
        f.write(" ".join(en) + "\t" + " ".join(de) + "\n")
        g.write(" ".join("%d-%d" % l for l in links) + "\n")
