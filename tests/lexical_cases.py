"""Sense cases for the offline judge: one source, four summaries of it (and a helper that asks
the judge for one claim's verdict).

``faithful`` is complete and correct; ``omits`` keeps one minor point; ``wrong_number`` and
``swapped`` are as complete as ``faithful`` but change one number or swap two names (or roles).
A sensible judge ranks ``faithful`` above each of the others under every preset.
"""

from __future__ import annotations

from dataclasses import dataclass

from summscore.judges import LexicalJudge


def verdict_of(claim: str, source: str) -> dict[str, object]:
    """The offline judge's verdict on one claim against ``source``."""
    (verdict,) = LexicalJudge().run(
        "verdicts",
        {"claims": [claim], "evidence": source, "vocabulary": ("yes", "no", "unknown")},
    )["verdicts"]
    return dict(verdict)


@dataclass(frozen=True)
class Quad:
    id: str
    source: str
    faithful: str
    omits: str
    wrong_number: str
    swapped: str


QUADS: tuple[Quad, ...] = (
    Quad(
        "acquisition",
        "Northwind Foods agreed to buy Baltic Dairy for 1.3 billion euros, the companies said on "
        "Monday. Northwind chief executive Sara Lindqvist will lead the combined group, while "
        "Baltic Dairy founder Juris Ozols will join the board. The deal needs approval from "
        "competition regulators and is expected to close in the second quarter of 2025.",
        "Northwind Foods will buy Baltic Dairy for 1.3 billion euros. Sara Lindqvist will lead the "
        "combined group and Juris Ozols will join the board; the deal should close in the second "
        "quarter of 2025 if regulators approve.",
        "Two food companies announced a deal on Monday.",
        "Northwind Foods will buy Baltic Dairy for 3.1 billion euros. Sara Lindqvist will lead the "
        "combined group and Juris Ozols will join the board; the deal should close in the second "
        "quarter of 2025 if regulators approve.",
        "Baltic Dairy will buy Northwind Foods for 1.3 billion euros. Juris Ozols will lead the "
        "combined group and Sara Lindqvist will join the board; the deal should close in the "
        "second quarter of 2025 if regulators approve.",
    ),
    Quad(
        "rates",
        "The Bank of Canada cut its key interest rate by half a percentage point to 3.75% on "
        "Wednesday, its second cut in a row. Governor Tiff Macklem said inflation had fallen to "
        "1.6% in September, below the 2% target. Economists at RBC expect another cut in December.",
        "The Bank of Canada cut its key rate by half a point to 3.75%, its second straight cut, "
        "after inflation fell to 1.6% in September, below the 2% target, Tiff Macklem said; RBC "
        "economists expect another cut in December.",
        "A central bank changed a rate.",
        "The Bank of Canada cut its key rate by half a point to 4.25%, its second straight cut, "
        "after inflation fell to 1.6% in September, below the 2% target, Tiff Macklem said; RBC "
        "economists expect another cut in December.",
        "The Bank of Canada cut its key rate by half a point to 3.75%, its second straight cut, "
        "after inflation fell to 1.6% in September, below the 2% target, RBC said; economists at "
        "Tiff Macklem's bank expect another cut in December.",
    ),
    Quad(
        "vaccine-trial",
        "A malaria vaccine developed at the University of Oxford cut clinical cases by 77% in a "
        "trial of 450 children in Burkina Faso. The results were published in The Lancet in "
        "April 2021. Adrian Hill, who led the team, said a larger trial with 4,800 children would "
        "start in four African countries.",
        "An Oxford malaria vaccine cut cases by 77% in a trial of 450 children in Burkina Faso, "
        "according to results published in The Lancet in April 2021; team leader Adrian Hill said "
        "a 4,800-child trial would follow in four African countries.",
        "Scientists published results about a vaccine.",
        "An Oxford malaria vaccine cut cases by 57% in a trial of 450 children in Burkina Faso, "
        "according to results published in The Lancet in April 2021; team leader Adrian Hill said "
        "a 4,800-child trial would follow in four African countries.",
        "An Oxford malaria vaccine cut cases by 77% in a trial of 450 children in Burkina Faso, "
        "according to results published in The Lancet in April 2021; team leader Adrian Hill said "
        "a 4,800-child trial would follow in four Asian countries.",
    ),
    Quad(
        "football",
        "Liverpool beat Arsenal 3-1 at Anfield on Sunday. Mohamed Salah scored twice and Darwin "
        "Nunez added a third, while Bukayo Saka scored Arsenal's only goal. The win moved "
        "Liverpool to the top of the table, two points ahead of Manchester City.",
        "Liverpool beat Arsenal 3-1 at Anfield on Sunday with two goals from Mohamed Salah and one "
        "from Darwin Nunez; Bukayo Saka replied for Arsenal. Liverpool went top, two points ahead "
        "of Manchester City.",
        "There was a football match on Sunday.",
        "Liverpool beat Arsenal 4-1 at Anfield on Sunday with two goals from Mohamed Salah and one "
        "from Darwin Nunez; Bukayo Saka replied for Arsenal. Liverpool went top, two points ahead "
        "of Manchester City.",
        "Arsenal beat Liverpool 3-1 at Anfield on Sunday with two goals from Bukayo Saka and one "
        "from Darwin Nunez; Mohamed Salah replied for Liverpool. Arsenal went top, two points "
        "ahead of Manchester City.",
    ),
    Quad(
        "earnings",
        "Acme Robotics reported revenue of $812 million for the third quarter, up 14% from a year "
        "earlier. Net income fell to $41 million from $55 million because of higher chip costs. "
        "Chief financial officer Priya Nair said the company would hire 600 engineers in 2025.",
        "Acme Robotics' third-quarter revenue rose 14% to $812 million, but net income fell to $41 "
        "million from $55 million on higher chip costs; CFO Priya Nair said it will hire 600 "
        "engineers in 2025.",
        "Acme Robotics released quarterly results.",
        "Acme Robotics' third-quarter revenue rose 14% to $812 million, but net income fell to $41 "
        "million from $55 million on higher chip costs; CFO Priya Nair said it will hire 900 "
        "engineers in 2025.",
        "Acme Robotics' third-quarter revenue rose 14% to $812 million, but net income fell to $55 "
        "million from $41 million on higher chip costs; CFO Priya Nair said it will hire 600 "
        "engineers in 2025.",
    ),
    Quad(
        "expedition",
        "In 1953 Edmund Hillary of New Zealand and Tenzing Norgay of Nepal became the first "
        "climbers confirmed to reach the summit of Mount Everest. The British expedition was led "
        "by John Hunt. They reached the top at 11:30 am on 29 May.",
        "Edmund Hillary of New Zealand and Tenzing Norgay of Nepal were the first confirmed to "
        "summit Mount Everest, at 11:30 am on 29 May 1953, on a British expedition led by John "
        "Hunt.",
        "Two climbers went up a mountain.",
        "Edmund Hillary of New Zealand and Tenzing Norgay of Nepal were the first confirmed to "
        "summit Mount Everest, at 11:30 am on 29 May 1956, on a British expedition led by John "
        "Hunt.",
        "Edmund Hillary of Nepal and Tenzing Norgay of New Zealand were the first confirmed to "
        "summit Mount Everest, at 11:30 am on 29 May 1953, on a British expedition led by John "
        "Hunt.",
    ),
    Quad(
        "ja-company",
        "その会社は1995年にJohn Smithによって設立された。従業員は10人で始まり、2020年までに500人に"
        "増えた。同社の本社はシアトルにある。",
        "1995年にJohn Smithが設立した同社は、従業員10人から2020年までに500人に増え、本社はシアトルにある。",
        "その会社には本社がある。",
        "1995年にJohn Smithが設立した同社は、従業員10人から2020年までに800人に増え、本社はシアトルにある。",
        "1995年にPeter Brownが設立した同社は、従業員10人から2020年までに500人に増え、本社はシアトルにある。",
    ),
    Quad(
        "zh-grain",
        "中国国家统计局周一公布，2023年全国粮食总产量为6.95亿吨，比上年增长1.3%。其中，玉米产量达到"
        "2.89亿吨，创历史新高。统计局表示，东北地区的增产贡献最大。",
        "国家统计局公布，2023年全国粮食总产量6.95亿吨，增长1.3%，玉米产量2.89亿吨创历史新高，东北地区贡献最大。",
        "统计局公布了数据。",
        "国家统计局公布，2023年全国粮食总产量7.95亿吨，增长1.3%，玉米产量2.89亿吨创历史新高，东北地区贡献最大。",
        "国家统计局公布，2023年全国粮食总产量6.95亿吨，增长1.3%，玉米产量2.89亿吨创历史新高，华南地区贡献最大。",
    ),
    Quad(
        "wildfire",
        "Firefighters in southern Oregon contained 85% of the Rogue Valley wildfire by Friday evening, officials said. The blaze, which started on July 3 after a lightning strike, burned about 12,000 acres and destroyed 41 homes. No deaths were reported, but two firefighters were treated for heat exhaustion. Governor Tina Kotek declared a state of emergency on July 5.",
        "The Rogue Valley wildfire in southern Oregon, sparked by lightning on July 3, was 85% contained by Friday after burning roughly 12,000 acres and 41 homes; nobody died, and Governor Tina Kotek had declared an emergency on July 5.",
        "A fire burned in Oregon.",
        "The Rogue Valley wildfire in southern Oregon, sparked by lightning on July 3, was 85% contained by Friday after burning roughly 21,000 acres and 41 homes; nobody died, and Governor Tina Kotek had declared an emergency on July 5.",
        "The Rogue Valley wildfire in southern Oregon, sparked by lightning on July 3, was 85% contained by Friday after burning roughly 12,000 acres and 41 homes; nobody died, and Governor Kate Brown had declared an emergency on July 5.",
    ),
    Quad(
        "chip-plant",
        "Samsung will invest $17 billion in a new chip factory in Taylor, Texas, the company announced on Tuesday. Construction begins in the first half of 2022, and the plant should start production by the end of 2024. Texas Governor Greg Abbott said the project would create 2,000 high-tech jobs.",
        "Samsung announced a $17 billion chip plant in Taylor, Texas, to be built from early 2022 and producing by late 2024; Governor Greg Abbott said it would bring 2,000 high-tech jobs.",
        "A company announced a factory.",
        "Samsung announced a $17 billion chip plant in Taylor, Texas, to be built from early 2022 and producing by late 2024; Governor Greg Abbott said it would bring 5,000 high-tech jobs.",
        "Intel announced a $17 billion chip plant in Taylor, Texas, to be built from early 2022 and producing by late 2024; Governor Greg Abbott said it would bring 2,000 high-tech jobs.",
    ),
    Quad(
        "election",
        "Voters in Portugal gave the Socialist Party 120 of the 230 seats in parliament on Sunday, an absolute majority. Prime Minister Antonio Costa thanked supporters in Lisbon. The centre-right Social Democrats, led by Rui Rio, won 77 seats. Turnout was 58%.",
        "Portugal's Socialists won an absolute majority on Sunday with 120 of 230 seats, while Rui Rio's Social Democrats took 77; turnout was 58%, and Prime Minister Antonio Costa thanked supporters in Lisbon.",
        "Portugal held an election.",
        "Portugal's Socialists won an absolute majority on Sunday with 120 of 230 seats, while Rui Rio's Social Democrats took 87; turnout was 58%, and Prime Minister Antonio Costa thanked supporters in Lisbon.",
        "Portugal's Social Democrats won an absolute majority on Sunday with 120 of 230 seats, while Antonio Costa's Socialists took 77; turnout was 58%, and Prime Minister Rui Rio thanked supporters in Lisbon.",
    ),
    Quad(
        "drug-approval",
        "The US Food and Drug Administration approved lecanemab, an Alzheimer's drug from Eisai and Biogen, on January 6. In a trial of 1,795 patients, the drug slowed cognitive decline by 27% over 18 months. The treatment will cost $26,500 a year, Eisai said.",
        "On January 6 the FDA approved Eisai and Biogen's Alzheimer's drug lecanemab, which slowed cognitive decline by 27% over 18 months in a 1,795-patient trial; Eisai priced it at $26,500 a year.",
        "A drug was approved.",
        "On January 6 the FDA approved Eisai and Biogen's Alzheimer's drug lecanemab, which slowed cognitive decline by 72% over 18 months in a 1,795-patient trial; Eisai priced it at $26,500 a year.",
        "On January 6 the FDA approved Eisai and Biogen's Alzheimer's drug lecanemab, which slowed cognitive decline by 27% over 18 months in a 1,795-patient trial; Biogen priced it at $26,500 a year.",
    ),
    Quad(
        "museum-theft",
        "Thieves stole eight pieces of jewellery from the Louvre in Paris on Sunday morning in a robbery that lasted seven minutes, France's interior minister said. The gang used a truck-mounted ladder to reach the Apollo Gallery. The museum closed for the rest of the day.",
        "In a seven-minute robbery on Sunday morning, thieves used a truck-mounted ladder to reach the Louvre's Apollo Gallery and took eight pieces of jewellery, the interior minister said; the museum shut for the day.",
        "Something happened at a museum.",
        "In a seven-minute robbery on Sunday morning, thieves used a truck-mounted ladder to reach the Louvre's Apollo Gallery and took nine pieces of jewellery, the interior minister said; the museum shut for the day.",
        "In a seven-minute robbery on Sunday morning, thieves used a truck-mounted ladder to reach the Prado's Apollo Gallery and took eight pieces of jewellery, the interior minister said; the museum shut for the day.",
    ),
    Quad(
        "ja-weather",
        "気象庁によると、台風10号は29日午前8時ごろ鹿児島県に上陸した。最大瞬間風速は50メートルに達し、約25万世帯が停電した。JR九州は新幹線の運転を終日見合わせた。",
        "台風10号が29日朝に鹿児島県に上陸し、最大瞬間風速50メートルを記録、約25万世帯が停電し、JR九州は新幹線を終日運休した。",
        "台風が来た。",
        "台風10号が29日朝に鹿児島県に上陸し、最大瞬間風速70メートルを記録、約25万世帯が停電し、JR九州は新幹線を終日運休した。",
        "台風10号が29日朝に宮崎県に上陸し、最大瞬間風速50メートルを記録、約25万世帯が停電し、JR東日本は新幹線を終日運休した。",
    ),
)
