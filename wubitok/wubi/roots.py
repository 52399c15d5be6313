"""The Wubi-86 root chart (字根表): every root on its key, the key names and the 口诀.

These are facts of the scheme (王码五笔字型 86 版), written down here by hand: the
25 keys a-y in five areas (横 竖 撇 捺 折 起笔), each with its key name (键名字),
the roots (字根) on it and the traditional verse (口诀) that teaches them.

Each root carries its strokes in writing order as the letters ``h s p n z``
(横 竖 撇 点/捺 折, the notation of the stroke table the splits are derived
with).  A 提 counts as 横 and a 竖钩 as 竖, as Wubi counts them.  The strokes let
:mod:`wubitok.wubi.splits` cut a component that is not itself a root into the
roots it is written with.

Some roots are no character of their own (the top of 青, 衤 without its dots):
they are shown with the nearest Unicode form, or where none is near, named after
the character they come from (高头, 皮头); ``ROOT_NOTES`` says what each is.
"""
from __future__ import annotations

from dataclasses import dataclass

# The stroke types, in the order of the five areas; the single-stroke roots and
# their keys: a stroke of type t types as the first key of its area.
STROKES = "hspnz"
STROKE_NAMES = {"h": "横", "s": "竖", "p": "撇", "n": "捺", "z": "折"}
STROKE_ROOTS = {"h": "一", "s": "丨", "p": "丿", "n": "丶", "z": "乙"}
STROKE_KEYS = {"h": "g", "s": "h", "p": "t", "n": "y", "z": "n"}

# 末笔识别码: the key from the last stroke (row) and the structure (column):
# 1 左右, 2 上下, 3 杂合.  The key is the last stroke's area, position 1-3.
STRUCTURES = ("左右", "上下", "杂合")
IDENTIFIER_KEYS = {
    "h": ("g", "f", "d"),
    "s": ("h", "j", "k"),
    "p": ("t", "r", "e"),
    "n": ("y", "u", "i"),
    "z": ("n", "b", "v"),
}


@dataclass(frozen=True)
class KeyChart:
    key: str  # a-y
    area: int  # 1 横 2 竖 3 撇 4 捺 5 折
    position: int  # 1-5 within the area (11 = G ... 55 = X)
    key_name: str  # 键名字
    verse: str  # 口诀
    roots: tuple[tuple[str, tuple[str, ...]], ...]  # (root, the ways its strokes are written)


def _roots(spec: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``"王:hhsh 龰:shpn|shph"`` -> ((王, (hhsh,)), (龰, (shpn, shph))): a root may be written
    in more than one way (龰 ends in a 捺 in 足, in a 提 in 𧾷)."""
    return tuple((item.split(":")[0], tuple(item.split(":")[1].split("|"))) for item in spec.split())


# The first root of each key is its key name; the order of the rest follows the chart.
CHART: tuple[KeyChart, ...] = (
    # 1 横起笔
    KeyChart("g", 1, 1, "王", "王旁青头戋（兼）五一",
             _roots("王:hhsh 龶:hhsh 戋:hhzpn 五:hszh 一:h")),
    KeyChart("f", 1, 2, "土", "土士二干十寸雨",
             _roots("土:hsh 士:hsh 二:hh 干:hhs 十:hs 寸:hsn 雨:hszsnnnn ⻗:hnzsnnnn 𠃛:szhhs")),
    KeyChart("d", 1, 3, "大", "大犬三羊古石厂",
             _roots("大:hpn 犬:hpnn 三:hhh 𡗗:hhhpn ⺶:hhhs 古:hsszh 石:hpszh 厂:hp ⺁:hp ナ:hp 镸:hshhzn")),
    KeyChart("s", 1, 4, "木", "木丁西",
             _roots("木:hspn 丁:hs 西:hszpzh 覀:hszssh")),
    KeyChart("a", 1, 5, "工", "工戈草头右框七",
             _roots("工:hsh 戈:hzpn 弋:hzn 艹:hss 廾:hps 廿:hssh 匚:hz 七:hz")),
    # 2 竖起笔
    KeyChart("h", 2, 1, "目", "目具上止卜虎皮",
             _roots("目:szhhh 具上:szhhhh 丨:s 亅:s 卜:sn ⺊:sh 上:shh 止:shsh 龰:shpn|shph|shsp 虎皮:shzp|zps")),
    KeyChart("j", 2, 2, "日", "日早两竖与虫依",
             _roots("日:szhh 曰:szhh 早:szhhhs 虫:szhshn 刂:ss ⺉:ss|ps|sp")),
    KeyChart("k", 2, 3, "口", "口与川，字根稀",
             _roots("口:szh 川:pss")),
    KeyChart("l", 2, 4, "田", "田甲方框四车力",
             _roots("田:szhsh 甲:szhhs 囗:szh 四:szpzh 皿:szssh 罒:szssh|sznph|szpnh|szsnph 车:hzhs 力:zp|pz")),
    KeyChart("m", 2, 5, "山", "山由贝，下框几",
             _roots("山:szs 由:szhsh 贝:szpn 冂:sz 几:pz")),
    # 3 撇起笔
    KeyChart("t", 3, 1, "禾", "禾竹一撇双人立，反文条头共三一",
             _roots("禾:phspn|hhspn 竹:phsphs ⺮:phnphn 丿:p ㇒:p 攵:phpn 彳:pps 夂:pzn 𠂉:ph")),
    KeyChart("r", 3, 2, "白", "白手看头三二斤",
             _roots("白:pszhh 手:phhs 扌:hsh 龵:phhp ⺧:phh 斤:pphs 𠂆:ps|pp")),
    KeyChart("e", 3, 3, "月", "月彡（衫）乃用家衣底",
             _roots("月:pzhh 彡:ppp 乃:zp 用:pzhhs 豕:hpzpppn 𧰨:pzpppn 𧘇:zppn|zpn 爫:pnnp ⺼:pzhh|pznhn")),
    KeyChart("w", 3, 4, "人", "人和八，三四里",
             _roots("人:pn 亻:ps 八:pn 癶:znppn")),
    KeyChart("q", 3, 5, "金", "金勺缺点无尾鱼，犬旁留乂儿一点夕，氏无七（妻）",
             _roots("金:pnhhsnph 钅:phhhz 𩵋:pzszhsh 勹:pz 𠂊:pz 乂:pn 儿:pz 夕:pzn|pznn 𠂎:pz")),
    # 4 捺（点）起笔
    KeyChart("y", 4, 1, "言", "言文方广在四一，高头一捺谁人去",
             _roots("言:nhhhszh 讠:nz 文:nhpn 方:nhzp 广:nhp 亠:nh 丶:n ㇏:n 乀:n 高头:nhszh 隹右:nhhshh|nhhhsh")),
    KeyChart("u", 4, 2, "立", "立辛两点六门疒",
             _roots("立:nhnph 辛:nhnphhs 丷:np|pn 䒑:nph 冫:nh|nn 丬:nhs 六:nhpn 门:nsz 疒:nhpnh")),
    KeyChart("i", 4, 3, "水", "水旁兴头小倒立",
             _roots("水:szpn 氵:nnh 氺:nhspn|snhpn 小:spn|psn ⺌:snp ⺍:nnp 兴头:nnph|snph")),
    KeyChart("o", 4, 4, "火", "火业头，四点米",
             _roots("火:nppn 灬:nnnn 米:nphspn 业头:ssnp|szpn|sspn")),
    KeyChart("p", 4, 5, "之", "之字军盖建道底，摘礻（示）衤（衣）",
             _roots("之:nzn 辶:nzn 廴:zn 冖:nz 宀:nnz ⺭:nzs")),
    # 5 折起笔
    KeyChart("n", 5, 1, "已", "已半巳满不出己，左框折尸心和羽",
             _roots("已:zhz 己:zhz 巳:zhz 乙:z 乛:z 乚:z 𠃍:z 𠃌:z ㇉:z 𠄌:z 𠃊:z 𠃋:z ㇆:z 𠄎:z "
                    "尸:zhp 心:nznn 忄:nns ⺗:nznn 羽:znhznh コ:zh")),
    KeyChart("b", 5, 2, "子", "子耳了也框向上",
             _roots("子:zsh 孑:zsh 了:zs 也:zsz 耳:hsshhh 卩:zs 㔾:zsz 阝:zs 凵:zs")),
    KeyChart("v", 5, 3, "女", "女刀九臼山朝西",
             _roots("女:zph 刀:zp 九:pz 臼:pszhhh 彐:zhh ⺕:zhh 巛:zzz")),
    KeyChart("c", 5, 4, "又", "又巴马，丢矢矣",
             _roots("又:zn 巴:zshz 马:zzh 厶:zn ⺈:pz")),
    KeyChart("x", 5, 5, "纟", "慈母无心弓和匕，幼无力",
             _roots("纟:zzh 幺:zzn 弓:zhz 匕:pz ⺟:zz 彑:zzh")),
)

# Roots that are no character of their own, or easily confused: what each stands for.
ROOT_NOTES = {
    "龶": "青头, the top of 青",
    "⻗": "雨 as a top (雪)",
    "𡗗": "the top of 春",
    "⺶": "the foot of 羊 (三 and a vertical)",
    "ナ": "the top of 左 and 右",
    "镸": "the top of 長 (套, 髟)",
    "⺊": "卜 without its dot's slant (上 without its base)",
    "龰": "止 as a foot (走, 是)",
    "⺉": "two verticals (刂), also a slant and a vertical (介, 井)",
    "𠂉": "a slant and a stroke (午, 矢, 年)",
    "龵": "看头, the top of 看",
    "⺧": "the top of 牛 and 告",
    "𠂆": "the slant-and-vertical of 后 and 反, and the two slants of 勿",
    "虎皮": "the tops of 虎 (虍 without 七) and of 皮 (皮 without 又)",
    "兴头": "the top of 兴 (also of 光 and inside 应)",
    "具上": "the top of 具 (目 over 一)",
    "业头": "业 without its base (also the foot of 亦)",
    "冫": "two dots (冫, and the dots of 头)",
    "高头": "the top of 高 (亠 and 口)",
    "罒": "四 lying, and the tops of 黑 and the middle of 曾",
    "禾": "禾, and the foot of 余",
    "夕": "夕, and the top of 然",
    "氺": "水 as a foot (泰, 康)",
    "小": "小, and 不 without its top",
    "𧰨": "家 without its roof and top stroke",
    "𧘇": "衣底, the foot of 衣",
    "𠂊": "鱼头 and 角头",
    "𠂎": "氏无七, 氏 without its hook",
    "⺼": "月 as a part, also the inside of 舟",
    "𩵋": "无尾鱼, 鱼 without its last stroke",
    "隹右": "谁人去: 隹 without 亻",
    "𠃛": "the foot of 革 (革 = 廿 and this)",
    "㇏": "a right-falling stroke",
    "⺭": "礻 and 衤 without their dots",
    "⺗": "小心底, 心 as a foot",
    "コ": "左框, a frame open to the left",
    "⺕": "彐 turned (山朝西)",
    "⺈": "the top of 鱼 and 角 on 又",
    "彑": "the top of 彖",
    "⺟": "慈母无心: 母 without its dots and stroke",
}

# The names learners call the roots that are no common character (the chart's own words where it
# has them): shown where a font cannot draw the root itself.
ROOT_NAMES = {
    "龶": "青头", "⻗": "雨头", "𠃛": "革底", "𡗗": "春头", "⺶": "羊底", "⺁": "厂", "ナ": "左头",
    "⺊": "卜", "龰": "足底", "⺉": "两竖", "⺮": "竹头", "㇒": "丿", "𠂉": "午头", "龵": "看头",
    "⺧": "牛头", "𠂆": "反头", "𧰨": "家底", "𧘇": "衣底", "⺼": "月", "𩵋": "鱼头", "𠂊": "角头",
    "𠂎": "氏无七", "㇏": "捺", "⺌": "小头", "⺍": "学头", "⺭": "礻无点", "㇉": "乙", "㇆": "乙",
    "⺗": "心底", "⺕": "彐", "⺈": "刀头", "⺟": "母无心", "コ": "左框",
}

# Parts whose roots are not written one after another (非: 三 刂 三 interleave; 我's 戈 drops its
# dot; 母's dots sit either side of its 一): the order Wubi codes them in, a fact of the scheme
# that strokes cannot give.  Each is still held to the dictionary's code by the check.
INTERLEAVED = {
    "非": ("三", "刂", "三"),
    "我": ("丿", "扌", "乙", "丿"),
    "那": ("刀", "二", "阝"),
    "母": ("⺟", "一", "冫"),
    "每": ("𠂉", "⺟", "一", "冫"),
    "毒": ("龶", "⺟", "一", "冫"),
    "龙": ("ナ", "匕"),
    "尤": ("ナ", "乙"),
    "永": ("丶", "乙", "水"),
}

ROOT_KEYS: dict[str, str] = {}
ROOT_STROKES: dict[str, tuple[str, ...]] = {}
for _chart in CHART:
    for _root, _strokes in _chart.roots:
        ROOT_KEYS.setdefault(_root, _chart.key)
        ROOT_STROKES.setdefault(_root, _strokes)
KEY_CHART: dict[str, KeyChart] = {c.key: c for c in CHART}
KEY_NAMES: dict[str, str] = {c.key_name: c.key for c in CHART}  # 键名字 -> key


def identifier_key(last_stroke: str, structure: int) -> str:
    """The 末笔识别码 for a last stroke (``hspnz``) and a structure (1 左右, 2 上下, 3 杂合)."""
    return IDENTIFIER_KEYS[last_stroke][structure - 1]
