/**
 * The Nexmark benchmark's Flink SQL as github.com/nexmark/nexmark (nexmark-flink/src/main/resources/queries,
 * Apache License 2.0) writes it: the `nexmark` table (ddl_gen.sql), the person, auction and bid
 * views (ddl_views.sql) and the queries, each a blackhole sink table and its INSERT. Copied with
 * the license headers left out; only the generator's WITH options are Weir's (`nexmarkDdl`).
 * Used by the tests and `pnpm bench sql`.
 */

/** ddl_gen.sql's table as `nexmark`, with Weir's generator options. */
export function nexmarkDdl(options: Readonly<Record<string, string>>): string {
  const withs = Object.entries({ connector: 'nexmark', ...options }).map(([k, v]) => `'${k}' = '${v}'`).join(', ');
  return `CREATE TABLE nexmark (
    event_type int,
    person ROW<
        id  BIGINT,
        name  VARCHAR,
        emailAddress  VARCHAR,
        creditCard  VARCHAR,
        city  VARCHAR,
        state  VARCHAR,
        \`dateTime\` TIMESTAMP(3),
        extra  VARCHAR>,
    auction ROW<
        id  BIGINT,
        itemName  VARCHAR,
        description  VARCHAR,
        initialBid  BIGINT,
        reserve  BIGINT,
        \`dateTime\`  TIMESTAMP(3),
        expires  TIMESTAMP(3),
        seller  BIGINT,
        category  BIGINT,
        extra  VARCHAR>,
    bid ROW<
        auction  BIGINT,
        bidder  BIGINT,
        price  BIGINT,
        channel  VARCHAR,
        url  VARCHAR,
        \`dateTime\`  TIMESTAMP(3),
        extra  VARCHAR>,
    \`dateTime\` AS
        CASE
            WHEN event_type = 0 THEN person.\`dateTime\`
            WHEN event_type = 1 THEN auction.\`dateTime\`
            ELSE bid.\`dateTime\`
        END,
    WATERMARK FOR \`dateTime\` AS \`dateTime\` - INTERVAL '4' SECOND
) WITH (${withs})`;
}

export const NEXMARK_VIEWS: readonly string[] = [
  "CREATE VIEW person AS\nSELECT\n    person.id,\n    person.name,\n    person.emailAddress,\n    person.creditCard,\n    person.city,\n    person.state,\n    `dateTime`,\n    person.extra\nFROM nexmark WHERE event_type = 0",
  "CREATE VIEW auction AS\nSELECT\n    auction.id,\n    auction.itemName,\n    auction.description,\n    auction.initialBid,\n    auction.reserve,\n    `dateTime`,\n    auction.expires,\n    auction.seller,\n    auction.category,\n    auction.extra\nFROM nexmark WHERE event_type = 1",
  "CREATE VIEW bid AS\nSELECT\n    bid.auction,\n    bid.bidder,\n    bid.price,\n    bid.channel,\n    bid.url,\n    `dateTime`,\n    bid.extra\nFROM nexmark WHERE event_type = 2"
];

/** Each query's statements (its sink table, any view of its own, its INSERT), verbatim. q6 is left out: Flink does not run it either. */
export const NEXMARK_QUERIES: Readonly<Record<string, readonly string[]>> = {
  "q0": [
    "CREATE TABLE nexmark_q0 (\n  auction  BIGINT,\n  bidder  BIGINT,\n  price  BIGINT,\n  `dateTime`  TIMESTAMP(3),\n  extra  VARCHAR\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q0\nSELECT auction, bidder, price, `dateTime`, extra FROM bid"
  ],
  "q1": [
    "CREATE TABLE nexmark_q1 (\n  auction  BIGINT,\n  bidder  BIGINT,\n  price  DECIMAL(23, 3),\n  `dateTime`  TIMESTAMP(3),\n  extra  VARCHAR\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q1\nSELECT\n    auction,\n    bidder,\n    0.908 * price as price, -- convert dollar to euro\n    `dateTime`,\n    extra\nFROM bid"
  ],
  "q2": [
    "CREATE TABLE nexmark_q2 (\n  auction  BIGINT,\n  price  BIGINT\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q2\nSELECT auction, price FROM bid WHERE MOD(auction, 123) = 0"
  ],
  "q3": [
    "CREATE TABLE nexmark_q3 (\n  name  VARCHAR,\n  city  VARCHAR,\n  state  VARCHAR,\n  id  BIGINT\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q3\nSELECT\n    P.name, P.city, P.state, A.id\nFROM\n    auction AS A INNER JOIN person AS P on A.seller = P.id\nWHERE\n    A.category = 10 and (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA')"
  ],
  "q4": [
    "CREATE TABLE nexmark_q4 (\n  id BIGINT,\n  final BIGINT\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q4\nSELECT\n    Q.category,\n    AVG(Q.final)\nFROM (\n    SELECT MAX(B.price) AS final, A.category\n    FROM auction A, bid B\n    WHERE A.id = B.auction AND B.`dateTime` BETWEEN A.`dateTime` AND A.expires\n    GROUP BY A.id, A.category\n) Q\nGROUP BY Q.category"
  ],
  "q5": [
    "CREATE TABLE nexmark_q5 (\n  auction  BIGINT,\n  num  BIGINT\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q5\nSELECT AuctionBids.auction, AuctionBids.num\n FROM (\n   SELECT\n     auction,\n     count(*) AS num,\n     window_start AS starttime,\n     window_end AS endtime\n     FROM TABLE(\n             HOP(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '10' SECOND))\n     GROUP BY auction, window_start, window_end\n ) AS AuctionBids\n JOIN (\n   SELECT\n     max(CountBids.num) AS maxn,\n     CountBids.starttime,\n     CountBids.endtime\n   FROM (\n     SELECT\n       count(*) AS num,\n       window_start AS starttime,\n       window_end AS endtime\n     FROM TABLE(\n                HOP(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '10' SECOND))\n     GROUP BY auction, window_start, window_end\n     ) AS CountBids\n   GROUP BY CountBids.starttime, CountBids.endtime\n ) AS MaxBids\n ON AuctionBids.starttime = MaxBids.starttime AND\n    AuctionBids.endtime = MaxBids.endtime AND\n    AuctionBids.num >= MaxBids.maxn"
  ],
  "q7": [
    "CREATE TABLE nexmark_q7 (\n  auction  BIGINT,\n  bidder  BIGINT,\n  price  BIGINT,\n  `dateTime`  TIMESTAMP(3),\n  extra  VARCHAR\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q7\nSELECT B.auction, B.price, B.bidder, B.`dateTime`, B.extra\nfrom bid B\nJOIN (\n  SELECT MAX(price) AS maxprice, window_end as `dateTime`\n  FROM TABLE(\n          TUMBLE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))\n  GROUP BY window_start, window_end\n) B1\nON B.price = B1.maxprice\nWHERE B.`dateTime` BETWEEN B1.`dateTime`  - INTERVAL '10' SECOND AND B1.`dateTime`"
  ],
  "q8": [
    "CREATE TABLE nexmark_q8 (\n  id  BIGINT,\n  name  VARCHAR,\n  stime  TIMESTAMP(3)\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q8\nSELECT P.id, P.name, P.starttime\nFROM (\n  SELECT id, name,\n        window_start AS starttime,\n        window_end AS endtime\n  FROM TABLE(\n            TUMBLE(TABLE person, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))\n  GROUP BY id, name, window_start, window_end\n) P\nJOIN (\n  SELECT seller,\n        window_start AS starttime,\n        window_end AS endtime\n  FROM TABLE(\n        TUMBLE(TABLE auction, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))\n  GROUP BY seller, window_start, window_end\n) A\nON P.id = A.seller AND P.starttime = A.starttime AND P.endtime = A.endtime"
  ],
  "q9": [
    "CREATE TABLE nexmark_q9 (\n  id  BIGINT,\n  itemName  VARCHAR,\n  description  VARCHAR,\n  initialBid  BIGINT,\n  reserve  BIGINT,\n  `dateTime`  TIMESTAMP(3),\n  expires  TIMESTAMP(3),\n  seller  BIGINT,\n  category  BIGINT,\n  extra  VARCHAR,\n  auction  BIGINT,\n  bidder  BIGINT,\n  price  BIGINT,\n  bid_dateTime  TIMESTAMP(3),\n  bid_extra  VARCHAR\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q9\nSELECT\n    id, itemName, description, initialBid, reserve, `dateTime`, expires, seller, category, extra,\n    auction, bidder, price, bid_dateTime, bid_extra\nFROM (\n   SELECT A.*, B.auction, B.bidder, B.price, B.`dateTime` AS bid_dateTime, B.extra AS bid_extra,\n     ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY B.price DESC, B.`dateTime` ASC) AS rownum\n   FROM auction A, bid B\n   WHERE A.id = B.auction AND B.`dateTime` BETWEEN A.`dateTime` AND A.expires\n)\nWHERE rownum <= 1"
  ],
  "q10": [
    "CREATE TABLE nexmark_q10 (\n  auction  BIGINT,\n  bidder  BIGINT,\n  price  BIGINT,\n  `dateTime`  TIMESTAMP(3),\n  extra  VARCHAR,\n  dt STRING,\n  hm STRING\n) PARTITIONED BY (dt, hm) WITH (\n  'connector' = 'filesystem',\n  'path' = 'file://${NEXMARK_DIR}/data/output/${SUBMIT_TIME}/bid/',\n  'format' = 'csv',\n  'sink.partition-commit.trigger' = 'partition-time',\n  'sink.partition-commit.delay' = '1 min',\n  'sink.partition-commit.policy.kind' = 'success-file',\n  'partition.time-extractor.timestamp-pattern' = '$dt $hm:00',\n  'sink.rolling-policy.rollover-interval' = '1min',\n  'sink.rolling-policy.check-interval' = '1min'\n)",
    "INSERT INTO nexmark_q10\nSELECT auction, bidder, price, `dateTime`, extra, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd'), DATE_FORMAT(`dateTime`, 'HH:mm')\nFROM bid"
  ],
  "q11": [
    "CREATE TABLE nexmark_q11 (\n  bidder BIGINT,\n  bid_count BIGINT,\n  starttime TIMESTAMP(3),\n  endtime TIMESTAMP(3)\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q11\nSELECT\n    B.bidder,\n    count(*) as bid_count,\n    SESSION_START(B.`dateTime`, INTERVAL '10' SECOND) as starttime,\n    SESSION_END(B.`dateTime`, INTERVAL '10' SECOND) as endtime\nFROM bid B\nGROUP BY B.bidder, SESSION(B.`dateTime`, INTERVAL '10' SECOND)"
  ],
  "q12": [
    "CREATE TABLE nexmark_q12 (\n  bidder BIGINT,\n  bid_count BIGINT,\n  starttime TIMESTAMP(3),\n  endtime TIMESTAMP(3)\n) WITH (\n  'connector' = 'blackhole'\n)",
    "CREATE VIEW B AS SELECT *, PROCTIME() as p_time FROM bid",
    "INSERT INTO nexmark_q12\nSELECT\n    bidder,\n    count(*) as bid_count,\n    window_start AS starttime,\n    window_end AS endtime\nFROM TABLE(\n        TUMBLE(TABLE B, DESCRIPTOR(p_time), INTERVAL '10' SECOND))\nGROUP BY bidder, window_start, window_end"
  ],
  "q13": [
    "CREATE TABLE side_input (\n  key BIGINT,\n  `value` VARCHAR\n) WITH (\n  'connector.type' = 'filesystem',\n  'connector.path' = 'file://${FLINK_HOME}/data/side_input.txt',\n  'format.type' = 'csv'\n)",
    "CREATE TABLE nexmark_q13 (\n  auction  BIGINT,\n  bidder  BIGINT,\n  price  BIGINT,\n  `dateTime`  TIMESTAMP(3),\n  `value`  VARCHAR\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q13\nSELECT\n    B.auction,\n    B.bidder,\n    B.price,\n    B.`dateTime`,\n    S.`value`\nFROM (SELECT *, PROCTIME() as p_time FROM bid) B\nJOIN side_input FOR SYSTEM_TIME AS OF B.p_time AS S\nON mod(B.auction, 10000) = S.key"
  ],
  "q14": [
    "CREATE FUNCTION count_char AS 'com.github.nexmark.flink.udf.CountChar'",
    "CREATE TABLE nexmark_q14 (\n    auction BIGINT,\n    bidder BIGINT,\n    price  DECIMAL(23, 3),\n    bidTimeType VARCHAR,\n    `dateTime` TIMESTAMP(3),\n    extra VARCHAR,\n    c_counts BIGINT\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q14\nSELECT \n    auction,\n    bidder,\n    0.908 * price as price,\n    CASE\n        WHEN HOUR(`dateTime`) >= 8 AND HOUR(`dateTime`) <= 18 THEN 'dayTime'\n        WHEN HOUR(`dateTime`) <= 6 OR HOUR(`dateTime`) >= 20 THEN 'nightTime'\n        ELSE 'otherTime'\n    END AS bidTimeType,\n    `dateTime`,\n    extra,\n    count_char(extra, 'c') AS c_counts\nFROM bid\nWHERE 0.908 * price > 1000000 AND 0.908 * price < 50000000"
  ],
  "q15": [
    "CREATE TABLE nexmark_q15 (\n  `day` VARCHAR,\n  total_bids BIGINT,\n  rank1_bids BIGINT,\n  rank2_bids BIGINT,\n  rank3_bids BIGINT,\n  total_bidders BIGINT,\n  rank1_bidders BIGINT,\n  rank2_bidders BIGINT,\n  rank3_bidders BIGINT,\n  total_auctions BIGINT,\n  rank1_auctions BIGINT,\n  rank2_auctions BIGINT,\n  rank3_auctions BIGINT\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q15\nSELECT\n     DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') as `day`,\n     count(*) AS total_bids,\n     count(*) filter (where price < 10000) AS rank1_bids,\n     count(*) filter (where price >= 10000 and price < 1000000) AS rank2_bids,\n     count(*) filter (where price >= 1000000) AS rank3_bids,\n     count(distinct bidder) AS total_bidders,\n     count(distinct bidder) filter (where price < 10000) AS rank1_bidders,\n     count(distinct bidder) filter (where price >= 10000 and price < 1000000) AS rank2_bidders,\n     count(distinct bidder) filter (where price >= 1000000) AS rank3_bidders,\n     count(distinct auction) AS total_auctions,\n     count(distinct auction) filter (where price < 10000) AS rank1_auctions,\n     count(distinct auction) filter (where price >= 10000 and price < 1000000) AS rank2_auctions,\n     count(distinct auction) filter (where price >= 1000000) AS rank3_auctions\nFROM bid\nGROUP BY DATE_FORMAT(`dateTime`, 'yyyy-MM-dd')"
  ],
  "q16": [
    "CREATE TABLE nexmark_q16 (\n    channel VARCHAR,\n    `day` VARCHAR,\n    `minute` VARCHAR,\n    total_bids BIGINT,\n    rank1_bids BIGINT,\n    rank2_bids BIGINT,\n    rank3_bids BIGINT,\n    total_bidders BIGINT,\n    rank1_bidders BIGINT,\n    rank2_bidders BIGINT,\n    rank3_bidders BIGINT,\n    total_auctions BIGINT,\n    rank1_auctions BIGINT,\n    rank2_auctions BIGINT,\n    rank3_auctions BIGINT\n) WITH (\n    'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q16\nSELECT\n    channel,\n    DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') as `day`,\n    max(DATE_FORMAT(`dateTime`, 'HH:mm')) as `minute`,\n    count(*) AS total_bids,\n    count(*) filter (where price < 10000) AS rank1_bids,\n    count(*) filter (where price >= 10000 and price < 1000000) AS rank2_bids,\n    count(*) filter (where price >= 1000000) AS rank3_bids,\n    count(distinct bidder) AS total_bidders,\n    count(distinct bidder) filter (where price < 10000) AS rank1_bidders,\n    count(distinct bidder) filter (where price >= 10000 and price < 1000000) AS rank2_bidders,\n    count(distinct bidder) filter (where price >= 1000000) AS rank3_bidders,\n    count(distinct auction) AS total_auctions,\n    count(distinct auction) filter (where price < 10000) AS rank1_auctions,\n    count(distinct auction) filter (where price >= 10000 and price < 1000000) AS rank2_auctions,\n    count(distinct auction) filter (where price >= 1000000) AS rank3_auctions\nFROM bid\nGROUP BY channel, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd')"
  ],
  "q17": [
    "CREATE TABLE nexmark_q17 (\n  auction BIGINT,\n  `day` VARCHAR,\n  total_bids BIGINT,\n  rank1_bids BIGINT,\n  rank2_bids BIGINT,\n  rank3_bids BIGINT,\n  min_price BIGINT,\n  max_price BIGINT,\n  avg_price BIGINT,\n  sum_price BIGINT\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q17\nSELECT\n     auction,\n     DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') as `day`,\n     count(*) AS total_bids,\n     count(*) filter (where price < 10000) AS rank1_bids,\n     count(*) filter (where price >= 10000 and price < 1000000) AS rank2_bids,\n     count(*) filter (where price >= 1000000) AS rank3_bids,\n     min(price) AS min_price,\n     max(price) AS max_price,\n     avg(price) AS avg_price,\n     sum(price) AS sum_price\nFROM bid\nGROUP BY auction, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd')"
  ],
  "q18": [
    "CREATE TABLE nexmark_q18 (\n    auction  BIGINT,\n    bidder  BIGINT,\n    price  BIGINT,\n    channel  VARCHAR,\n    url  VARCHAR,\n    `dateTime`  TIMESTAMP(3),\n    extra  VARCHAR\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q18\nSELECT auction, bidder, price, channel, url, `dateTime`, extra\n FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY `dateTime` DESC) AS rank_number\n       FROM bid)\n WHERE rank_number <= 1"
  ],
  "q19": [
    "CREATE TABLE nexmark_q19 (\n    auction  BIGINT,\n    bidder  BIGINT,\n    price  BIGINT,\n    channel  VARCHAR,\n    url  VARCHAR,\n    `dateTime`  TIMESTAMP(3),\n    extra  VARCHAR,\n    rank_number  BIGINT\n) WITH (\n  'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q19\nSELECT * FROM\n(SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM bid)\nWHERE rank_number <= 10"
  ],
  "q20": [
    "CREATE TABLE nexmark_q20 (\n    auction  BIGINT,\n    bidder  BIGINT,\n    price  BIGINT,\n    channel  VARCHAR,\n    url  VARCHAR,\n    bid_dateTime  TIMESTAMP(3),\n    bid_extra  VARCHAR,\n    itemName  VARCHAR,\n    description  VARCHAR,\n    initialBid  BIGINT,\n    reserve  BIGINT,\n    auction_dateTime  TIMESTAMP(3),\n    expires  TIMESTAMP(3),\n    seller  BIGINT,\n    category  BIGINT,\n    auction_extra  VARCHAR\n) WITH (\n    'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q20\nSELECT\n    auction, bidder, price, channel, url, B.`dateTime`, B.extra,\n    itemName, description, initialBid, reserve, A.`dateTime`, expires, seller, category, A.extra\nFROM\n    bid AS B INNER JOIN auction AS A on B.auction = A.id\nWHERE A.category = 10"
  ],
  "q21": [
    "CREATE TABLE nexmark_q21 (\n    auction  BIGINT,\n    bidder  BIGINT,\n    price  BIGINT,\n    channel  VARCHAR,\n    channel_id  VARCHAR\n) WITH (\n    'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q21\nSELECT\n    auction, bidder, price, channel,\n    CASE\n        WHEN lower(channel) = 'apple' THEN '0'\n        WHEN lower(channel) = 'google' THEN '1'\n        WHEN lower(channel) = 'facebook' THEN '2'\n        WHEN lower(channel) = 'baidu' THEN '3'\n        ELSE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)\n        END\n    AS channel_id FROM bid\n    where REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2) is not null or\n          lower(channel) in ('apple', 'google', 'facebook', 'baidu')"
  ],
  "q22": [
    "CREATE TABLE nexmark_q22 (\n      auction  BIGINT,\n      bidder  BIGINT,\n      price  BIGINT,\n      channel  VARCHAR,\n      dir1  VARCHAR,\n      dir2  VARCHAR,\n      dir3  VARCHAR\n) WITH (\n    'connector' = 'blackhole'\n)",
    "INSERT INTO nexmark_q22\nSELECT\n    auction, bidder, price, channel,\n    SPLIT_INDEX(url, '/', 3) as dir1,\n    SPLIT_INDEX(url, '/', 4) as dir2,\n    SPLIT_INDEX(url, '/', 5) as dir3 FROM bid"
  ]
};

/** A query's SELECT: its INSERT (the last statement) without `INSERT INTO <sink>`, for reading its changelog (toChangelogStream). */
export function nexmarkSelect(query: string): string {
  const statements = NEXMARK_QUERIES[query];
  if (statements === undefined) throw new Error(`no Nexmark query ${query}`);
  return statements[statements.length - 1]!.replace(/^INSERT INTO \w+\s*/, '');
}

/**
 * A CREATE TABLE of a query with its WITH clause replaced by `options` (the issue's "only the
 * WITH clauses adapted": q10's path names the Nexmark installation, and its partition-commit
 * options are Flink's that Weir refuses).
 */
export function nexmarkWith(statement: string, options: Readonly<Record<string, string>>): string {
  const at = statement.lastIndexOf(' WITH (');
  if (!statement.startsWith('CREATE TABLE') || at < 0) throw new Error(`not a CREATE TABLE .. WITH (..): ${statement.slice(0, 60)}`);
  return `${statement.slice(0, at)} WITH (${Object.entries(options).map(([k, v]) => `'${k}' = '${v}'`).join(', ')})`;
}
