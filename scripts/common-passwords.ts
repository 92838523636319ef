/**
 * Writes server/common-passwords.txt, the list of common passwords a manager may not choose
 * (server/passwords.ts). No published breach list is shipped (licences, size): the list is built from
 * the passwords that top every published "most common" ranking and from the ways people stretch them
 * to a length rule (a year, "123", "!", a keyboard walk). Only entries of PASSWORD_MIN characters or
 * more are kept: shorter ones are refused by length already. Entries are lower case; the check
 * compares case-insensitively.
 *
 *   node -r ./bench/register.js scripts/common-passwords.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { isRepetitive, PASSWORD_MAX, PASSWORD_MIN } from '../domain/managers';

/** The words and strings at the top of the published rankings (and of Chinese-language ones). */
const TOP = `
123456 password 123456789 12345678 12345 qwerty abc123 football 1234567 monkey 111111 letmein 1234
1234567890 dragon baseball sunshine iloveyou trustno1 princess adobe123 123123 welcome login admin
qwerty123 solo 1q2w3e4r master 666666 photoshop 1qaz2wsx qwertyuiop ashley mustang 121212 starwars
654321 bailey access flower 555555 passw0rd shadow lovely 7777777 michael jesus password1 superman
hello charlie 888888 696969 hottie freedom aa123456 qazwsx ninja azerty loveme whatever donald batman
zaq1zaq1 000000 123qwe jordan harley ranger hunter buster soccer hockey killer george andrew thomas
robert tigger pepper daniel jennifer joshua michelle maggie cheese computer corvette matthew yankees
dallas austin thunder taylor summer winter spring autumn merlin diamond ginger orange chelsea biteme
matrix secret pokemon cookie chocolate butterfly purple samsung google internet liverpool arsenal
barcelona juventus ferrari mercedes porsche yamaha scooter silver golden nicole jessica amanda hannah
lauren sophie anthony william charles justin jackson jasmine family friends forever blessed angel
angels baby babygirl lovers sweety cupcake peanut snoopy mickey minnie garfield phoenix falcon eagle
tiger lion wolf bear dolphin monster zombie warrior legend gandalf hobbit pass test guest root toor
default changeme administrator manager system server oracle mysql postgres database backup support
service office company business money dollar bitcoin crypto wallet hello123 welcome1 qwerty1
iloveu ilovegod loveyou lovelove sunflower rainbow unicorn pumpkin banana apple cherry strawberry
blueberry coffee pizza hamburger chicken dancing music guitar piano rockstar rocknroll metallica
nirvana beatles eminem slipknot naruto sasuke goku pikachu mario zelda minecraft fortnite roblox
warcraft starcraft diablo counter steelers cowboys patriots packers lakers celtics bulls yankee
redsox chicago newyork london paris berlin tokyo america canada england france germany italy spain
mexico brazil jordan23 kobe24 lebron michael23 hellokitty superstar superman1 spiderman ironman
captain avengers marvel hulk thor wonderwoman batman1 joker hunter2 trustme letmein1 opensesame
asshole fuckyou fuckoff bullshit shithead cocacola pepsi nintendo playstation xbox360 sony
microsoft apple123 iphone android windows linux ubuntu hacker hacking security private
password! passwort motdepasse contrasena senha parola wachtwoord salasana haslo jelszo heslo
woaini woaini1314 5201314 1314520 520520 wocaonima zhangwei wangwei wangfang liwei lijing liuyang
qq123456 taobao baidu tencent weixin alibaba huawei xiaomi zhongguo china beijing shanghai shenzhen
guangzhou aini woaiwojia 147258369 159357 147258 258369 123654 987654321 112233 11223344 123321
123abc abc123456 a123456 a12345678 a123456789 123456a 123456aa 123456abc aaa123456 qwe123 qweasd
qweasdzxc asd123 zxc123 1qazxsw2 1q2w3e 1q2w3e4r5t q1w2e3r4 q1w2e3r4t5 zxcvbnm asdfghjkl asdfgh
qazwsxedc 7758521 7758258 woaini520 iloveyou1314 caonima nihao nihao123 xiaoming xiaohong
dearbook yangyang xiaoxiao tingting jingjing 123456qq 1234qwer qwer1234 asdf1234 zxcv1234
abcd1234 1234abcd 12qwaszx 1qaz2wsx3edc 1qazxsw23edc zaq12wsx zaq1xsw2 !qaz2wsx 1qaz@wsx
p@ssw0rd p@ssword pa55word pa$$word p4ssw0rd passw0rd! pass123 pass1234 passpass passw0rd1
`;

/** The words people most often stretch to a length rule. */
const BASES = `
password passw0rd p@ssw0rd p@ssword pa55word pass admin administrator root test guest user
welcome qwerty qwertyuiop asdfgh zxcvbn iloveyou letmein monkey dragon sunshine princess football
baseball soccer hockey master shadow michael jennifer superman batman starwars pokemon whatever
trustno1 freedom hello charlie jordan computer internet summer winter spring autumn secret
login changeme default system manager server oracle china beijing shanghai woaini abc abcd
qwe asd zxc qaz love angel baby dragon1 killer cookie samsung google apple chocolate
liverpool chelsea arsenal barcelona juventus ferrari mercedes porsche flower orange purple
banana cherry coffee music guitar tiger eagle phoenix legend warrior naruto minecraft
`;

const SUFFIXES = [
  '',
  '1',
  '12',
  '123',
  '1234',
  '12345',
  '123456',
  '!',
  '1!',
  '123!',
  '!@#',
  '123!@#',
  '@123',
  '#123',
  '01',
  '007',
  '11',
  '69',
  '88',
  '99',
  '00',
  '520',
  '666',
  '888',
  '1314',
  '321',
  'abc',
];

const YEARS = Array.from({ length: 2030 - 1990 + 1 }, (_, i) => String(1990 + i));
const YEAR_BASES = `
admin administrator root test password passw0rd p@ssw0rd welcome qwerty system
summer winter spring autumn iloveyou china server changeme
`;
const YEAR_SEPARATORS = ['', '@', '#', '_'];

/** Rows and columns of a keyboard, number runs and the walks people type as "random". */
const WALKS = [
  '1234567890-=',
  '0987654321',
  '9876543210',
  '0123456789',
  'qwertyuiop[]',
  'poiuytrewq',
  "asdfghjkl;'",
  'lkjhgfdsa',
  'zxcvbnm,./',
  'mnbvcxz',
  'azertyuiop',
  'qwertzuiop',
  '!@#$%^&*()_+',
  ')(*&^%$#@!',
  '1qaz2wsx3edc4rfv5tgb6yhn',
  'zaq12wsxcde34rfvbgt5',
  '1q2w3e4r5t6y7u8i9o0p',
  'q1w2e3r4t5y6u7i8o9p0',
  'a1s2d3f4g5h6j7k8l9',
  '1a2s3d4f5g6h7j8k9l',
  'qazwsxedcrfvtgbyhn',
  'qazxswedcvfrtgb',
  'qweasdzxc',
  '123qweasdzxc',
  'qwerasdfzxcv',
  'asdfqwerzxcv',
  '1234qwerasdfzxcv',
  'qwertyasdfghzxcvbn',
  '1qaz!qaz2wsx@wsx',
  '!qaz@wsx#edc$rfv',
  '1qaz@wsx3edc$rfv',
  'zaq1@wsxcde3',
  'abcdefghijklmnopqrstuvwxyz',
  'zyxwvutsrqponmlkjihgfedcba',
  'a1b2c3d4e5f6g7h8',
  '1a2b3c4d5e6f7g8h',
  'abc123abc123',
  'abcd1234abcd',
  '147258369147258369',
  '159753159753',
  '1234554321',
  '12344321',
  '123454321',
  '12345654321',
  '123456789987654321',
  '987654321123456789',
  '1122334455',
  '11223344556677',
  '1020304050',
  '1357924680',
  '2468013579',
  '13579',
  '24680',
  '147852369',
  '741852963',
  '789456123',
  '963852741',
  '12345678910',
  '1234567891011',
  '0000011111',
  '1111122222',
  '1212312341',
  '1q2w3e4r5t',
  'q1w2e3r4t5',
  '1q2w3e4r5t6y',
  'qwe123qwe123',
  'asd123asd123',
  'zxc123zxc123',
  'qwerty123456',
  'qwertyuiop123',
  'asdfghjkl123',
  'zxcvbnm123',
  '123qwe123qwe',
  '1234qwer1234',
  'qwer1234qwer',
  'qwertyqwerty',
  'asdfasdfasdf',
  'zxcvzxcvzxcv',
  'qazwsx123',
  'qazwsxedc123',
  '1qaz2wsx3edc',
  '1qaz2wsx!@',
];

/** Phrases, Chinese pinyin favourites and other long ones that rank high on their own. */
const PHRASES = `
passwordpassword password123456 iloveyouiloveyou iloveyousomuch iloveyoubaby iloveyouforever
letmeinnow letmeinplease opensesame correcthorsebatterystaple thequickbrownfox helloworld
hellohello welcomewelcome welcome2home administrator1 administrator123 adminadmin adminadmin123
rootroot rootroot123 testtest testtest123 guestguest useruser changemenow changeme123 pleasechangeme
defaultpassword mypassword mypassword1 mypassword123 newpassword newpassword1 newpassword123
oldpassword secretpassword supersecret supersecret1 topsecret topsecret1 nopassword password12345678
qwertyuiopasdfghjkl woaiwoziji woainimen woaiwojia1 woaiwolaopo woaiwolaogong wangyibo xiaozhan
zhangsan123 lisi123456 wangwu123 wocaonima123 caonima123 1314woaini aini1314 aini520 5201314woaini
woaini5201314 woaini1314520 521521521 52013145201314 iloveyou520 iloveyou1314 qq5201314 abc5201314
zhangxiaoming wanglaoshi laopo520 laogong520 baobei520 baobei1314 baobeiwoaini
i love you|password 123|let me in|hello world|open sesame|correct horse battery staple|i love you so much
welcome to china|trust no one|admin admin|password password|love you forever|happy birthday
`;

const words = (s: string) => s.split(/\s+/).filter(Boolean);

export function buildCommonPasswords(): string[] {
  const out = new Set<string>();
  const add = (p: string) => {
    const l = p.normalize('NFKC').toLowerCase();
    const n = [...l].length;
    // Repetitive ones ('aaaaaaaaaa', '1212121212') are refused by rule, not by listing.
    if (n >= PASSWORD_MIN && n <= PASSWORD_MAX && !isRepetitive(l)) out.add(l);
  };
  for (const w of words(TOP)) {
    add(w);
    for (const s of ['1', '12', '123', '1234', '12345', '123456', '!', '123!']) add(w + s);
  }
  for (const b of words(BASES)) {
    for (const s of SUFFIXES) {
      add(b + s);
      if (['1', '123', '1234', '12345', '123456'].includes(s)) add(s + b);
    }
    add(b + b);
  }
  for (const b of words(YEAR_BASES)) {
    for (const y of YEARS) {
      for (const sep of YEAR_SEPARATORS) add(b + sep + y);
      add(`${b}${y}!`);
      add(`${b}@${y}!`);
    }
  }
  for (const w of WALKS) {
    for (let end = PASSWORD_MIN; end <= w.length; end++) add(w.slice(0, end));
    add(w);
  }
  const [single, spaced] = PHRASES.split('\n').reduce<[string[], string[]]>(
    ([a, b], line) => (line.includes('|') ? [a, [...b, ...line.split('|')]] : [[...a, ...words(line)], b]),
    [[], []],
  );
  for (const p of [...single, ...spaced]) {
    add(p);
    add(`${p}1`);
    add(`${p}123`);
    add(`${p}!`);
  }
  return [...out].sort();
}

if (require.main === module) {
  const list = buildCommonPasswords();
  const file = path.join(__dirname, '..', 'server', 'common-passwords.txt');
  fs.writeFileSync(file, `${list.join('\n')}\n`);
  process.stdout.write(`${file}: ${list.length} passwords, ${fs.statSync(file).size} bytes\n`);
}
