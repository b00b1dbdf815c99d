#!/usr/bin/env node
// Generates the bundled example datasets in examples/ deterministically (a seeded PRNG, no clock,
// no Math.random), so re-running it reproduces the committed files byte for byte.
//
//   node scripts/gen-examples.mjs [--out examples]
//
// Datasets:
//   orders.ndjson       NDJSON, 2,000 orders. customerId is skewed (a few customers own most
//                       orders), some orders lack it, and some customerIds are numbers while others
//                       are the same digits as strings ("5" vs 5: different partitions). Nested
//                       /address/city, numeric /total, and a field named "promo/code" (key path
//                       /promo~1code) to show JSON-pointer escaping.
//   food.json           a JSON array of ~400 food items shaped like the Cosmos DB docs' nutrition
//                       sample (id, description, tags, foodGroup, nutrients, servings).
//   single-device.json  one JSON object: a device twin. One item, one partition.
//   vehicles.ndjson     NDJSON, 3,000 telemetry readings of 60 vehicles over 7 days, most of
//                       them from the last day (the day being written): /date as the key puts a
//                       day's writes in one logical partition; the synthetic-key lesson of the
//                       Cosmos DB docs (date + a suffix computed from the VIN) spreads them.
//   index.json          the list the page's example picker reads.
import {mkdirSync, writeFileSync} from 'node:fs';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {mulberry32 as prng} from './prng.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const outDir = resolve(outIndex >= 0 ? args[outIndex + 1] : join(here, '..', 'examples'));


function tools(seed) {
  const rand = prng(seed);
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const chance = (p) => rand() < p;
  const money = (lo, hi) => Math.round((lo + rand() * (hi - lo)) * 100) / 100;
  const hex = (n) => {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[int(0, 15)];
    return s;
  };
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
  return {rand, int, pick, chance, money, hex, uuid};
}

// ---------------------------------------------------------------------------------------------
// orders.ndjson
function genOrders() {
  const t = tools(20240611);
  const cities = [
    ['Seattle', 'US', '98101'], ['Redmond', 'US', '98052'], ['Portland', 'US', '97201'],
    ['Austin', 'US', '73301'], ['Chicago', 'US', '60601'], ['Toronto', 'CA', 'M5H'],
    ['Vancouver', 'CA', 'V6B'], ['London', 'GB', 'EC1A'], ['Dublin', 'IE', 'D01'],
    ['Berlin', 'DE', '10115'], ['Munich', 'DE', '80331'], ['Paris', 'FR', '75001'],
    ['Lyon', 'FR', '69001'], ['Madrid', 'ES', '28001'], ['Amsterdam', 'NL', '1011'],
    ['Stockholm', 'SE', '111 20'], ['Oslo', 'NO', '0150'], ['Zürich', 'CH', '8001'],
    ['Tokyo', 'JP', '100-0001'], ['Osaka', 'JP', '530-0001'], ['Seoul', 'KR', '04524'],
    ['Singapore', 'SG', '018956'], ['Sydney', 'AU', '2000'], ['Melbourne', 'AU', '3000'],
    ['Auckland', 'NZ', '1010'], ['São Paulo', 'BR', '01000'], ['Mexico City', 'MX', '06000'],
    ['Cape Town', 'ZA', '8001'], ['Mumbai', 'IN', '400001'], ['Bengaluru', 'IN', '560001'],
  ];
  // City popularity is skewed too: the first few cities get most orders.
  const cityWeight = cities.map((_, i) => 1 / (i + 1));
  const cityTotal = cityWeight.reduce((a, b) => a + b, 0);
  const pickCity = () => {
    let r = t.rand() * cityTotal;
    for (let i = 0; i < cities.length; i++) {
      r -= cityWeight[i];
      if (r < 0) return cities[i];
    }
    return cities[cities.length - 1];
  };
  const products = [
    ['Espresso beans 1kg', 24.5], ['Pour-over kettle', 39], ['Ceramic mug', 12], ['Grinder', 119],
    ['Paper filters (100)', 6.25], ['Milk frother', 29.99], ['Tea sampler', 18], ['Scale', 45],
    ['Cold brew jar', 22], ['Travel tumbler', 27.5], ['Decaf beans 500g', 14.75], ['Cocoa tin', 9.5],
  ];
  const statuses = ['placed', 'paid', 'shipped', 'delivered', 'delivered', 'delivered', 'returned'];
  const channels = ['web', 'web', 'web', 'app', 'app', 'store'];

  // Customer ids: a handful of heavy buyers (hot partitions) and a long tail.
  const heavy = ['c-1001', 'c-1002', 'c-1003', 'c-1004'];
  const heavyShare = [0.16, 0.09, 0.05, 0.03];
  const tailSize = 600;

  const lines = [];
  const n = 2000;
  for (let i = 0; i < n; i++) {
    let customerId;
    const r = t.rand();
    let acc = 0;
    for (let h = 0; h < heavy.length && customerId === undefined; h++) {
      acc += heavyShare[h];
      if (r < acc) customerId = heavy[h];
    }
    if (customerId === undefined) customerId = `c-${2000 + Math.floor(Math.pow(t.rand(), 1.6) * tailSize)}`;

    const [city, country, zip] = pickCity();
    const lineCount = t.int(1, 4);
    const lineItems = [];
    let total = 0;
    for (let l = 0; l < lineCount; l++) {
      const [name, price] = t.pick(products);
      const qty = t.int(1, 3);
      total += price * qty;
      lineItems.push({sku: `sku-${name.length}${l}`, name, qty, price});
    }
    total = Math.round(total * 100) / 100;
    const day = 1 + (i % 28);
    const month = 1 + Math.floor(i / 170) % 12;
    const order = {
      id: `o-${String(100000 + i)}`,
      customerId,
      orderDate: `2024-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${String(t.int(0, 23)).padStart(2, '0')}:${String(t.int(0, 59)).padStart(2, '0')}:00Z`,
      status: t.pick(statuses),
      channel: t.pick(channels),
      total,
      currency: country === 'US' ? 'USD' : country === 'GB' ? 'GBP' : 'EUR',
      address: {city, country, zip},
      lines: lineItems,
    };
    if (t.chance(0.08)) order['promo/code'] = t.pick(['SPRING10', 'WELCOME', 'FREESHIP']);
    if (t.chance(0.03)) order.giftMessage = 'Happy birthday! '.repeat(t.int(1, 30)).trim();

    // Messy real-world data: ~3% of orders lack customerId (the "undefined" partition), and a
    // legacy importer wrote numeric ids for some orders: 7 and "7" are different keys.
    // Two orders carry an object as customerId: Cosmos DB would reject them (invalid key).
    if (i % 37 === 5) delete order.customerId;
    else if (i % 41 === 3) order.customerId = i % 2 === 0 ? 7 : '7';
    else if (i % 43 === 4) order.customerId = 5;
    else if (i % 47 === 6) order.customerId = '5';
    else if (i === 777 || i === 1555) order.customerId = {legacyId: 5};
    lines.push(JSON.stringify(order));
  }
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// food.json
function genFood() {
  const t = tools(1977);
  const groups = {
    'Dairy and Egg Products': ['Cheese', 'Milk', 'Yogurt', 'Butter', 'Egg', 'Cream'],
    'Spices and Herbs': ['Basil', 'Cumin', 'Paprika', 'Oregano', 'Thyme', 'Turmeric'],
    'Baby Foods': ['Babyfood, fruit', 'Babyfood, cereal', 'Babyfood, vegetable'],
    'Fats and Oils': ['Oil, olive', 'Oil, canola', 'Margarine', 'Shortening'],
    'Poultry Products': ['Chicken', 'Turkey', 'Duck', 'Goose'],
    'Soups, Sauces, and Gravies': ['Soup, tomato', 'Sauce, pesto', 'Gravy, brown', 'Soup, lentil'],
    'Sausages and Luncheon Meats': ['Salami', 'Bologna', 'Frankfurter', 'Ham, sliced'],
    'Breakfast Cereals': ['Cereal, oat rings', 'Cereal, bran flakes', 'Granola', 'Muesli'],
    'Fruits and Fruit Juices': ['Apples', 'Bananas', 'Oranges', 'Juice, grape', 'Blueberries', 'Mango'],
    'Vegetables and Vegetable Products': ['Carrots', 'Broccoli', 'Spinach', 'Potatoes', 'Kale', 'Onions'],
    'Nut and Seed Products': ['Almonds', 'Cashews', 'Sunflower seeds', 'Walnuts'],
    'Beverages': ['Coffee, brewed', 'Tea, green', 'Cola', 'Water, mineral'],
    'Legumes and Legume Products': ['Chickpeas', 'Lentils', 'Tofu', 'Beans, black'],
    'Baked Products': ['Bread, rye', 'Bagel', 'Croissant', 'Muffin, blueberry'],
    'Sweets': ['Chocolate, dark', 'Honey', 'Candy, hard', 'Syrup, maple'],
    'Cereal Grains and Pasta': ['Rice, brown', 'Pasta, dry', 'Quinoa', 'Barley'],
  };
  const groupNames = Object.keys(groups);
  // Some groups are much larger than others, like the real USDA data.
  const groupWeight = groupNames.map((_, i) => 1 + ((i * 7) % 5) * 2 + (i === 9 ? 10 : 0));
  const weightSum = groupWeight.reduce((a, b) => a + b, 0);
  const pickGroup = () => {
    let r = t.rand() * weightSum;
    for (let i = 0; i < groupNames.length; i++) {
      r -= groupWeight[i];
      if (r < 0) return groupNames[i];
    }
    return groupNames[groupNames.length - 1];
  };
  const qualifiers = ['raw', 'cooked', 'boiled', 'frozen', 'canned', 'dried', 'roasted',
                      'low fat', 'without salt', 'with salt', 'unenriched', 'fortified'];
  const nutrientDefs = [
    ['203', 'Protein', 'g'], ['204', 'Total lipid (fat)', 'g'], ['205', 'Carbohydrate, by difference', 'g'],
    ['208', 'Energy', 'kcal'], ['269', 'Sugars, total', 'g'], ['291', 'Fiber, total dietary', 'g'],
    ['301', 'Calcium, Ca', 'mg'], ['303', 'Iron, Fe', 'mg'], ['304', 'Magnesium, Mg', 'mg'],
    ['306', 'Potassium, K', 'mg'], ['307', 'Sodium, Na', 'mg'], ['401', 'Vitamin C, total ascorbic acid', 'mg'],
    ['404', 'Thiamin', 'mg'], ['415', 'Vitamin B-6', 'mg'], ['601', 'Cholesterol', 'mg'],
  ];
  const items = [];
  const n = 400;
  for (let i = 0; i < n; i++) {
    const foodGroup = pickGroup();
    const base = t.pick(groups[foodGroup]);
    const qs = [t.pick(qualifiers)];
    if (t.chance(0.4)) qs.push(t.pick(qualifiers));
    const description = `${base}, ${qs.join(', ')}`;
    const nutrients = [];
    for (const [id, desc, units] of nutrientDefs) {
      if (t.chance(0.75)) nutrients.push({id, description: desc, nutritionValue: t.money(0, units === 'kcal' ? 600 : 40), units});
    }
    const servings = [{amount: 1, description: t.pick(['cup', 'tbsp', 'oz', 'slice', 'piece', 'serving']), weightInGrams: t.int(5, 250)}];
    if (t.chance(0.5)) servings.push({amount: 100, description: 'g', weightInGrams: 100});
    const item = {
      id: String(1001 + i * 3).padStart(5, '0'),
      description,
      tags: description.toLowerCase().split(', ').map((name) => ({name})),
      version: 1,
      isFromSurvey: t.chance(0.2),
      foodGroup,
      nutrients,
      servings,
    };
    if (t.chance(0.15)) item.manufacturerName = t.pick(['Contoso Foods', 'Fabrikam Farms', 'Northwind Traders']);
    if (t.chance(0.1)) item.commonName = base.toLowerCase();
    items.push(item);
  }
  return JSON.stringify(items, null, 1) + '\n';
}

// ---------------------------------------------------------------------------------------------
// single-device.json
function genDevice() {
  const t = tools(42);
  const readings = [];
  for (let i = 0; i < 24; i++) {
    readings.push({hour: i, temperatureC: Math.round((18 + 6 * Math.sin(i / 4) + t.rand()) * 10) / 10,
                   humidity: t.int(30, 70)});
  }
  const device = {
    id: 'twin-0001',
    deviceId: 'thermostat-7f3a',
    tenantId: 'contoso',
    'site/zone': 'hq/floor-3',
    model: {vendor: 'Fabrikam', name: 'T-1000', firmware: '2.4.1'},
    online: true,
    lastSeen: '2024-06-11T08:30:00Z',
    location: {building: 'HQ', floor: 3, room: '3.14'},
    settings: {targetC: 21.5, mode: 'auto', schedule: null},
    tags: ['hvac', 'floor-3', 'pilot'],
    readings,
  };
  return JSON.stringify(device, null, 2) + '\n';
}

// ---------------------------------------------------------------------------------------------
// vehicles.ndjson
function genVehicles() {
  const t = tools(2018);
  // 17-character VINs from the VIN alphabet (no I, O, Q).
  const alphabet = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
  const vins = [];
  for (let v = 0; v < 60; v++) {
    let vin = '1FT';
    for (let i = 0; i < 14; i++) vin += alphabet[t.int(0, alphabet.length - 1)];
    vins.push(vin);
  }
  const days = ['2018-08-03', '2018-08-04', '2018-08-05', '2018-08-06', '2018-08-07', '2018-08-08',
                '2018-08-09'];
  const lines = [];
  const seq = new Map();
  for (let i = 0; i < 3000; i++) {
    // 70% of the readings are today's: the partition of the current date takes the writes.
    const date = t.chance(0.7) ? days[6] : days[t.int(0, 5)];
    const vin = t.pick(vins);
    const n = (seq.get(vin) ?? 0) + 1;
    seq.set(vin, n);
    const reading = {
      id: `${vin}-${String(n).padStart(5, '0')}`,
      vin,
      date,
      timestamp: `${date}T${String(t.int(0, 23)).padStart(2, '0')}:${String(t.int(0, 59)).padStart(2, '0')}:${String(t.int(0, 59)).padStart(2, '0')}Z`,
      speedKph: t.int(0, 130),
      fuelPct: t.int(3, 100),
      odometerKm: 10000 + t.int(0, 150000),
      engineTempC: t.int(70, 110),
      location: {lat: Math.round((47 + t.rand()) * 1e5) / 1e5, lon: Math.round((-122.5 + t.rand()) * 1e5) / 1e5},
    };
    if (t.chance(0.05)) reading.diagnosticCodes = ['P0' + t.int(100, 999), 'P0' + t.int(100, 999)];
    lines.push(JSON.stringify(reading));
  }
  return lines.join('\n') + '\n';
}

const index = [
  {
    id: 'orders', title: 'Web shop orders (NDJSON)', file: 'orders.ndjson',
    format: 'ndjson', key: '/customerId',
    description: '2,000 orders, one per line. A few customers place most orders (hot partitions); some ' +
      'orders have no customerId (the "undefined" partition) and some ids are numbers while ' +
      'others are strings ("5" vs 5). Try /address/city, /status or /promo~1code.',
  },
  {
    id: 'food', title: 'Food nutrition (JSON array)', file: 'food.json',
    format: 'array', key: '/foodGroup',
    description: '400 foods shaped like the Cosmos DB docs\' nutrition sample. foodGroup has few distinct ' +
      'values, so items pile up in a handful of partitions; try /id for an even spread.',
    container: {hash_version: '2', ru_per_second: 30000,
                workload: {point_reads_per_second: 20000, writes_per_second: 500, queries_per_second: 0,
                           spread: 'uniform'}},
    lesson: 'At 30,000 RU/s the container has 3 physical partitions of 10,000 RU/s each. With only ' +
      '16 food groups, each physical partition holds a few whole groups, and the largest groups ' +
      'pull the most reads: the physical partition holding them runs hot while another idles. ' +
      'A split would not help a group that is hot on its own; /id spreads the reads evenly.',
  },
  {
    id: 'vehicles', title: 'Vehicle telemetry (NDJSON)', file: 'vehicles.ndjson',
    format: 'ndjson', key: '/date',
    description: '3,000 readings from 60 vehicles over 7 days, 70% of them from today. Try the ' +
      'synthetic key: the date plus a suffix computed from the VIN.',
    container: {hash_version: '2', ru_per_second: 40000,
                workload: {point_reads_per_second: 2000, writes_per_second: 6000, queries_per_second: 0,
                           spread: 'uniform'}},
    synthetic: {kind: 'hash_suffix', suffix_path: '/vin', buckets: 400, separator: '.'},
    lesson: 'With /date as the key, today\'s readings (and so today\'s writes) all go to one ' +
      'logical partition, which lives on one of the 4 physical partitions: it gets 10,000 of the ' +
      '40,000 RU/s and throttles. Appending a suffix computed from the VIN (1 to 400) spreads a ' +
      'day over up to 400 keys, and a reading can still be found with one point read, because ' +
      'the suffix is computed from the VIN; a random suffix would spread as well but make a read ' +
      'by VIN query all 400 keys.',
  },
  {
    id: 'device', title: 'One device twin (one object)', file: 'single-device.json',
    format: 'object', key: '/deviceId',
    description: 'A single object: one item, one logical partition. Try /model/vendor or ' +
      '/site~1zone (the field is named "site/zone").',
  },
  {
    // Written by scripts/gen-cosmos-export.mjs (gzip); listed here so the page offers it.
    id: 'cosmos-export', title: 'A Cosmos DB container export, gzipped (.json.gz)', file: 'cosmos-export.json.gz',
    format: 'array', key: '/tenantId',
    description: '1,500 invoices, payments, refunds and notes of 40 tenants as a container export writes ' +
      'them (a JSON array, 74 KB of gzip for 862 KB of JSON), each item with the system properties ' +
      'Cosmos DB adds when it stores one (_rid, _self, _etag, _attachments, _ts), which count in its ' +
      'size. The page decompresses it as it reads; every size is the JSON\'s. A few tenants hold most ' +
      'documents: try /kind or /id.',
  },
];

mkdirSync(outDir, {recursive: true});
const files = {
  'orders.ndjson': genOrders(),
  'food.json': genFood(),
  'single-device.json': genDevice(),
  'vehicles.ndjson': genVehicles(),
  'index.json': JSON.stringify(index, null, 2) + '\n',
};
for (const [name, text] of Object.entries(files)) {
  writeFileSync(join(outDir, name), text);
  console.log(`${join(outDir, name)}: ${Buffer.byteLength(text)} bytes`);
}
