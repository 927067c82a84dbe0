import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { extractStates } from "./extract-states.js";

const one = (text: string) => extractStates(text, "Ines").filter((s) => s.slot !== "relation").map(({ slot, value, additive, ends }) => ({ slot, value, additive, ends }));
const keys = (text: string, speaker = "User") => extractStates(text, speaker).map((s) => `${s.subject} | ${s.slot} = ${s.value}${s.ends ? " (ends)" : ""}${s.open ? " [open]" : ""}`);

describe("extractStates", () => {
  it("reads where the speaker lives, works and with whom", () => {
    assert.deepEqual(one("I live in Lisbon, right by the river."), [{ slot: "residence", value: "lisbon", additive: false, ends: false }]);
    assert.deepEqual(one("Big news: I moved to Porto last week!"), [{ slot: "residence", value: "porto", additive: false, ends: false }]);
    assert.deepEqual(one("I started a new job as a nurse at the clinic."), [{ slot: "job", value: "nurse", additive: false, ends: false }]);
    assert.deepEqual(one("I'm now working at Google."), [{ slot: "employer", value: "google", additive: false, ends: false }]);
    assert.deepEqual(one("My boyfriend Sam cooked tonight."), [{ slot: "partner", value: "sam", additive: false, ends: false }]);
    assert.deepEqual(one("We broke up in March."), [{ slot: "partner", value: "", additive: false, ends: true }]);
  });

  it("\"we\" is the speaker's household at a sentence's start too; a name that modifies a noun is no workplace", () => {
    for (const t of ["We moved to Manchester last week!", "We live in Manchester.", "We're living in Manchester now.", "We've been living in Manchester since May."])
      assert.deepEqual(one(t), [{ slot: "residence", value: "manchester", additive: false, ends: false }], t);
    assert.deepEqual(one("I'm training for the Leeds half marathon in May."), [], "an event, not an employer");
    assert.deepEqual(one("I'm training at Arsenal this season."), [{ slot: "employer", value: "arsenal", additive: false, ends: false }]);
    assert.deepEqual(one("I'm working for Google remotely."), [{ slot: "employer", value: "google", additive: false, ends: false }]);
  });

  it("a job offer accepted, or a start at a workplace, states the employer", () => {
    for (const t of ["I accepted the BBC offer, I start on Monday.", "I've accepted the offer from the BBC!", "I start at the BBC on Monday."])
      assert.deepEqual(one(t), [{ slot: "employer", value: "bbc", additive: false, ends: false }], t);
    assert.deepEqual(one("I accepted the offer."), [], "no workplace named");
    assert.deepEqual(one("I start at the Leeds office tomorrow."), [], "a name that modifies a noun");
  });

  it("pets add up; a pet that died ends only itself", () => {
    assert.deepEqual(one("We adopted a kitten named Miso!"), [{ slot: "pet", value: "miso", additive: true, ends: false }]);
    assert.deepEqual(one("My dog Rex passed away yesterday."), [{ slot: "pet", value: "rex", additive: true, ends: true }]);
    assert.deepEqual(one("My cat Luna sleeps all day."), [{ slot: "pet", value: "luna", additive: true, ends: false }]);
  });

  it("diet, favourites and counts", () => {
    assert.deepEqual(one("I no longer eat meat."), [{ slot: "eats meat", value: "no", additive: false, ends: false }]);
    assert.deepEqual(one("My favourite band is Radiohead these days."), [{ slot: "favourite band", value: "radiohead", additive: false, ends: false }]);
    assert.deepEqual(one("I have two kids and a cat."), [{ slot: "number of kids", value: "2", additive: false, ends: false }]);
    assert.deepEqual(one("I've completed 30 videos so far for Corey's series."), [{ slot: "videos done", value: "30", additive: false, ends: false }]);
  });

  it("plans, questions and plain chat state nothing", () => {
    assert.deepEqual(one("I'm going to move to Porto next month."), []);
    assert.deepEqual(keys("Have you tried the new ramen place? I ran 5 miles today."), []);
    assert.deepEqual(keys("My point is that we should go. My sister is a nightmare."), []);
    assert.deepEqual(one("I love the sunset at the beach."), []);
    assert.deepEqual(one("I moved to Porto in May."), [{ slot: "residence", value: "porto", additive: false, ends: false }]);
  });

  it("a workplace in lower case is an employer", () => {
    for (const text of ["I work at the café.", "I started working at the café last month.", "I now work at the café."]) assert.deepEqual(keys(text), ["User | employer = café"], text);
  });

  it("the work done, what it is done to, then where: the workplace is an employer", () => {
    assert.deepEqual(keys("Still teaching Year 2 at the primary school in Brunswick."), ["User | employer = primary school"]);
    assert.deepEqual(keys("I'm still cooking night shifts at the hospital."), ["User | employer = hospital"]);
    assert.deepEqual(keys("I'm working weekends at Harbour Books now."), ["User | employer = harbour books"]);
    // Not work: exercise, a project, where someone is met.
    for (const text of ["I'm still working out at the gym.", "I'm working on a mural at the school.", "Still training for the race at the park."]) assert.deepEqual(keys(text), [], text);
  });

  it("open-world: any thing of the speaker's given a value, keyed by its own words", () => {
    assert.deepEqual(keys("I've been using my Fitbit Charge 3 for 6 months."), ["User | using fitbit charge 3 = 6 months [open]"]);
    assert.deepEqual(keys("Btw my 5k personal best is 25:50!"), ["User | 5k personal best = 25:50 [open]"]);
    assert.deepEqual(keys("I've been to the gym three times this week."), ["User | visits to gym = three [open]"]);
    assert.deepEqual(keys("I've saved $4,000 so far."), ["User | saved = $4,000 [open]"]);
    assert.deepEqual(keys("My rent is now $1,450 a month."), ["User | rent = $1,450 [open]"]);
    assert.deepEqual(keys("My yoga class moved to Thursdays."), ["User | yoga class = thursdays [open]"]);
    assert.deepEqual(keys("I upgraded to the family plan last week."), ["User | plan subscribed = family [open]"]);
    assert.deepEqual(keys("I cancelled my Netflix subscription."), ["User | netflix subscription =  (ends) [open]"]);
    // "ones" is what the turn counted before it.
    assert.deepEqual(keys("Have you been to any good Thai places lately? I've tried five different ones so far."), ["User | thai places tried = five [open]"]);
    assert.deepEqual(keys("I'm still sticking to my morning stretching routine - it's already been 2 weeks!"), ["User | sticking to morning stretching routine = 2 weeks [open]"]);
  });

  it("open-world counts and amounts: a count held now, a count told after a dash, an amount granted; a restating question", () => {
    // A count with its noun is the named count slot; the open rules read the rest.
    assert.deepEqual(keys("We have 14 houseplants at home now."), ["User | number of houseplants = 14"]);
    // The count without its noun counts the last plural before it.
    assert.deepEqual(keys("I'm using up some of our fresh eggs - we've got 20 dozen stocked up in the fridge right now."), ["User | eggs = 20 dozen [open]"]);
    assert.deepEqual(keys("I need to use up our eggs, we have a lot in the fridge - 30 dozen at the moment!"), ["User | eggs = 30 dozen [open]"]);
    assert.deepEqual(keys("I got pre-approved for $350,000 from Wells Fargo."), ["User | pre-approved at wells fargo = $350,000 [open]"]);
    // "remember when I…?" restates; a real question still states nothing.
    assert.deepEqual(keys("It's been a long process - remember when I got pre-approved for $400,000 from Wells Fargo?"), ["User | pre-approved at wells fargo = $400,000 [open]"]);
    assert.deepEqual(keys("Could I get pre-approved for $400,000 from Wells Fargo?"), []);
    assert.deepEqual(keys("I have 2 questions about my taxes."), []);
    // A vague word is no value: "…for my store is something I'm always working on".
    assert.deepEqual(keys("Creating a strong brand image for my store is something I'm always working on."), []);
  });

  it("more wordings of the named slots: a flat in a place, a role said to hold now, a workplace by its work, a car bought after one sold", () => {
    assert.deepEqual(keys("Nadia, I've moved! I got a job in Munich, so I live in a flat in Schwabing now."), ["User | residence = schwabing"]);
    assert.deepEqual(keys("So we're still living in Kadıköy for now."), ["User | residence = kadıköy"]);
    assert.deepEqual(keys("I'm now head pastry chef at a hotel, Le Petit Nice."), ["User | job = head pastry chef"]);
    assert.deepEqual(keys("Marseille is home, and the hotel just made me executive pastry chef."), ["User | job = executive pastry chef"]);
    // What ends the slot and what follows in the same turn: the value the turn ends on.
    assert.deepEqual(keys("Big news: I left the bakery! I'm now head pastry chef at a hotel."), ["User | job = head pastry chef"]);
    assert.deepEqual(keys("I left the bakery!"), ["User | job =  (ends)"]);
    assert.deepEqual(keys("Yes, still baking at Four des Capucins, I start at four every morning."), ["User | employer = four des capucins"]);
    assert.deepEqual(keys("I sold the Golf before I left and bought a second-hand Toyota Hilux bakkie."), ["User | car = toyota hilux bakkie"]);
    // A role is a person's: "made me happy", "I'm now busy at work" are none.
    assert.deepEqual(keys("It made me happy."), []);
    assert.deepEqual(keys("I'm now busy at the weekends."), []);
  });

  it("counts of irregular plurals and of the family's own; a plan in another clause leaves the count", () => {
    assert.deepEqual(keys("That makes five grandchildren now."), ["User | number of grandchildren = 5"]);
    assert.deepEqual(keys("I have four grandchildren now, and they all want to visit at the same time."), ["User | number of grandchildren = 4"]);
    assert.deepEqual(keys("Between work and the two kids I barely sleep."), ["User | number of kids = 2"]);
    // Describing words between the count and the thing; "I've got" as well as "I have"; a count changed to a new value.
    assert.deepEqual(keys("I've got six private students at the moment."), ["User | number of students = 6"]);
    assert.deepEqual(keys("Business is booming, I'm up to nine private students, three of them adults."), ["User | number of students = 9"]);
    assert.deepEqual(keys("The vet is dropping him to 1.5 units twice a day."), ["User | number of units = 1.5"]);
    // A number word is no describing word: "two hundred miles" is not two miles.
    assert.deepEqual(keys("I drove up to two hundred miles."), []);
    assert.deepEqual(keys("I have three other ideas."), []);
    // "the three dogs" may be anyone's.
    assert.deepEqual(keys("The three dogs ran off."), []);
    assert.deepEqual(keys("I'm going to move to Porto next month, and I'm excited."), []);
  });

  it("a possessive holds in a plan; a pet introduced over two sentences", () => {
    assert.deepEqual(keys("Deal. My cat Pistache will stay with the neighbours."), ["User | pet = pistache"]);
    assert.deepEqual(keys("Dmitri, meet Tango officially! He's been home since May, my dog now."), ["User | pet = tango"]);
    assert.deepEqual(keys("I will adopt a dog named Rex."), []);
  });

  it("a bare count answers the count the other speaker asked of the speaker", () => {
    const answer = (text: string, asked: string) => extractStates(text, "Kwame", asked).map((s) => `${s.slot} = ${s.value}`);
    assert.deepEqual(answer("Eleven! I split some colonies in May.", "How many hives now?"), ["number of hives = 11"]);
    assert.deepEqual(answer("About 20.", "How many plants do you have at home?"), ["number of plants = 20"]);
    // Not a count of the speaker's, and not an answer.
    assert.deepEqual(answer("Eleven!", "How many people came to the party on Saturday?"), []);
    assert.deepEqual(answer("Eleven!", "Did you go?"), []);
    assert.deepEqual(answer("I went there eleven times.", "How many hives now?"), []);
  });

  it("other people's states, named or by relation; both said, a relation statement links them", () => {
    assert.deepEqual(keys("My sister Ana lives in Berlin."), ["Ana | residence = berlin", "Ana | relation = user's sister"]);
    assert.deepEqual(keys("My sister lives in Berlin."), ["User's sister | residence = berlin"]);
    assert.deepEqual(keys("Jon's new job is at Harborview."), ["Jon | employer = harborview"]);
    assert.deepEqual(keys("And my mom retired in May!"), ["User's mom | job = retired"]);
    // A role at a named place is work; "a member of", "a fan of" name none.
    assert.deepEqual(keys("My brother Chidi is an accountant at Harcourt & Lyle in Cardiff."), ["Chidi | job = accountant", "Chidi | relation = user's brother"]);
    assert.deepEqual(keys("My sister is a member of the Leeds Rowing Club."), []);
    // Notice handed in, a job quit: the work that held ends.
    assert.deepEqual(keys("Chidi handed in his notice."), ["Chidi | job =  (ends)"]);
    assert.deepEqual(keys("I handed in my notice today."), ["User | job =  (ends)"]);
    assert.deepEqual(keys("My parents have been staying with me for nine months now."), ["User's parents | staying with me = nine months [open]"]);
    // The speaker's own name is no other person.
    assert.deepEqual(keys("Ines moved to Porto.", "Ines"), []);
  });

  it("another person's home or role told with he or she: the person the turn named; staying, not visiting", () => {
    assert.deepEqual(keys("My cousin Elodie came to stay. She's been in Leeds since uni.", "Maren"), ["Elodie | relation = maren's cousin", "Elodie | residence = leeds"]);
    assert.deepEqual(keys("Elodie got the Glasgow job in the end, she moved up there in August.", "Maren"), ["Elodie | residence = glasgow"]);
    assert.deepEqual(keys("Elodie's still in Leeds for now.", "Maren"), ["Elodie | residence = leeds"]);
    assert.deepEqual(keys("My brother has been in Cork since June.", "Ruth"), ["Ruth's brother | residence = cork"]);
    // A new home somewhere is a move there, of the person named or of the one "her" stands for; a visit to one is none.
    assert.deepEqual(keys("Khadija's moved. She sent me a photo from her new flat in Manchester.", "Maren"), ["Khadija | residence = manchester"]);
    assert.deepEqual(keys("Khadija's new flat in Manchester is tiny.", "Maren"), ["Khadija | residence = manchester"]);
    assert.deepEqual(keys("I visited his new place in Leeds.", "Maren"), []);
    // "Moved there": the place the turn named before; with none named, nothing.
    assert.deepEqual(keys("I'm back from Cardiff! Greta finally moved there in July.", "Oona"), ["Greta | residence = cardiff"]);
    assert.deepEqual(keys("Greta moved there last year.", "Oona"), []);
    // The person the other speaker just asked after ("Any news from Elodie?", "How's your sister?"), not a place asked about.
    assert.deepEqual(extractStates("She's applying for jobs. She's still in Leeds for now.", "Maren", "Any news from Elodie?").map((st) => `${st.subject} | ${st.slot} = ${st.value}`), ["Elodie | residence = leeds"]);
    assert.deepEqual(extractStates("She's been living in Cork since June.", "Ruth", "How's your sister doing?").map((st) => `${st.subject} | ${st.slot} = ${st.value}`), ["Ruth's sister | residence = cork"]);
    assert.deepEqual(extractStates("She's still in Leeds for now.", "Ruth", "How was Lisbon?"), []);
    // A visit, or a pronoun with no one named before it, states no home.
    assert.deepEqual(keys("Ana is in Paris this weekend."), []);
    assert.deepEqual(keys("She's still in Leeds for now."), []);
    // A role said to hold now, of a named person or by he or she after the name; not a judgement or a family role.
    assert.deepEqual(keys("Big news: Fergus qualified! He's a proper paramedic now.", "Ruth"), ["Fergus | job = paramedic"]);
    assert.deepEqual(keys("Fergus is a qualified nurse now.", "Ruth"), ["Fergus | job = nurse"]);
    assert.deepEqual(keys("Tom is a nightmare now. Tom's a grandad now.", "Ruth"), []);
    // A role at a named place told with he or she, of the name said before it — with "And" before the name, too.
    assert.deepEqual(keys("And Bronwen qualified in March. She's a health visitor with the Northolt team now, day shifts.", "Wendell"), ["Bronwen | job = health visitor"]);
    assert.deepEqual(keys("Tom came round. He's a regular at the Crown.", "Ruth"), []);
    // A job held now, named by what it is; "the job" or "the old job" names none.
    assert.deepEqual(keys("Morning. Yaw's loving the college job.", "Kofi"), ["Yaw | job = college job"]);
    assert.deepEqual(keys("My sister is enjoying her new job.", "Kofi"), ["Kofi's sister | job = new job"]);
    assert.deepEqual(keys("Tom's loving the job. Tom's loving the old job.", "Kofi"), []);
    // Shifts somewhere are work there; a partner said with "been with", and a couple who split up.
    assert.deepEqual(keys("My brother's still doing nights at the supermarket warehouse.", "Ruth"), ["Ruth's brother | employer = supermarket warehouse"]);
    assert.deepEqual(keys("My friend Josie came round. She's been with her boyfriend Anton for about two years.", "Imogen"), ["Josie | relation = imogen's friend", "Josie | partner = anton"]);
    assert.deepEqual(keys("Other news: Josie and Anton have split up.", "Imogen"), ["Josie | partner =  (ends)"]);
  });

  it("a parent called by kin alone is the speaker's; a new home moved into, or moved into with someone, is where they live", () => {
    assert.deepEqual(keys("Then Dad moved to Leeds.", "Ruth"), ["Ruth's dad | residence = leeds"]);
    assert.deepEqual(keys("Grandma moved in with my aunt in Cobh after the winter.", "Ruth"), ["Ruth's grandma | residence = cobh"]);
    assert.deepEqual(keys("Fergus passed his exams and has moved into a shared flat in Leith.", "Ruth"), ["Fergus | residence = leith"]);
    // Kin called in the family's own language; a home named before what it is; living "on her own" somewhere.
    assert.deepEqual(keys("A lot has changed. Oma moved into De Lindehof, a care home in Haren, just before Christmas.", "Ilse"), ["Ilse's oma | residence = haren"]);
    assert.deepEqual(keys("Pappa is retired now.", "Dagny"), ["Dagny's pappa | job = retired"]);
    assert.deepEqual(keys("My grandmother lives on her own in Groningen.", "Ilse"), ["Ilse's grandmother | residence = groningen"]);
    // A lease is the speaker's home only when it is theirs: "his lease", "Dev's lease" are someone else's.
    assert.deepEqual(keys("We renewed our lease in Porto.", "Ravi"), ["Ravi | residence = porto"]);
    assert.deepEqual(keys("Dev says hi. He's just renewed his lease in Toronto. Dev's lease in Toronto runs out.", "Ravi"), []);
    // A sentence's opening word is no part of the name after it.
    assert.deepEqual(keys("And Josie is dating Anton.", "Imogen"), ["Josie | partner = anton"]);
    // Kin with "my" was read before; a capitalised kin word that only starts a greeting is nobody.
    assert.deepEqual(keys("Dad says hi.", "Ruth"), []);
  });

  it("a workplace quit or a car sold, named: the statement that ends it keeps the name", () => {
    assert.deepEqual(keys("Quick one: I quit the Musikschule at the end of November.", "Yev"), ["Yev | employer = musikschule (ends)"]);
    assert.deepEqual(keys("I handed in my notice at Harcourt & Lyle.", "Chidi"), ["Chidi | employer = harcourt & lyle (ends)"]);
    assert.deepEqual(keys("I sold the Fiesta last weekend.", "Ife"), ["Ife | car = fiesta (ends)"]);
    // Unnamed, as before: the slot ends.
    assert.deepEqual(keys("I sold my old car.", "Ife"), ["Ife | car =  (ends)"]);
  });

  it("a word that opens a sentence or contracts \"I\" is nobody: \"I'm\", \"I've\", \"Bit of both\" name no other person", () => {
    assert.deepEqual(keys("Yes. I'm a bit sad, but it's time. I'm retired, why not.", "Yusuf"), ["Yusuf | job = retired"]);
    assert.deepEqual(keys("I retired last spring.", "Yusuf"), ["Yusuf | job = retired"]);
    assert.deepEqual(keys("I've moved to Tromsø!", "Ingrid"), ["Ingrid | residence = tromsø"]);
    // "Bit" is followed by "of", no verb: the pronoun after it has no one to stand for, so nothing is said of anyone.
    assert.deepEqual(keys("Bit of both. We met at uni in a choir. Oh, and she's been with her boyfriend Anton for about two years.", "Imogen"), []);
    assert.deepEqual(keys("I retired from running marathons years ago.", "Yusuf"), [], "retired from a pastime");
  });

  it("settled in a place is a home, the speaker's or the named person's; working for oneself is a job; a clock is one value", () => {
    assert.deepEqual(keys("Good luck! I'm so settled in Berlin.", "Lukas"), ["Lukas | residence = berlin"]);
    assert.deepEqual(keys("Arjun's settled in Bristol now, he lives two streets away from me!", "Priya"), ["Arjun | residence = bristol"]);
    assert.deepEqual(keys("Ana is finally in Paris this weekend.", "Priya"), [], "a visit");
    assert.deepEqual(keys("I quit the agency. I'm freelancing now, mostly branding.", "Priya"), ["Priya | job = freelance"]);
    assert.deepEqual(keys("I'm between jobs at the moment.", "Priya"), ["Priya | job = unemployed"]);
    assert.deepEqual(keys("I'm going to go freelance next year.", "Priya"), [], "a plan");
    assert.deepEqual(keys("Under 1:55 this time. My best is still 1:58 from Bath.", "Sam"), ["Sam | best = 1:58 [open]"]);
    // A preference keyed by the preferred thing's head word; a wish ("I'd prefer") or a way of doing ("prefer to…") is none.
    assert.deepEqual(keys("I prefer oat milk these days."), ["User | preferred milk = oat milk [open]"]);
    assert.deepEqual(keys("I now prefer window seats to aisle ones."), ["User | preferred seats = window seats [open]"]);
    for (const t of ["I prefer to work from home.", "I'd prefer a quieter table.", "I prefer it that way."]) assert.deepEqual(keys(t), [], t);
    // A record told as news, or ending before "after"; the book one is on.
    assert.deepEqual(keys("Good news, new 10k best: 49:30! What should I eat?"), ["User | 10k best = 49:30 [open]"]);
    assert.deepEqual(keys("My 10k best is now 47:10 after the Phoenix Park race!"), ["User | 10k best = 47:10 [open]"]);
    assert.deepEqual(keys("I'm reading The Overstory right now."), ["User | book reading = overstory [open]"]);
    assert.deepEqual(keys("I finished The Overstory and started Piranesi."), ["User | book reading = piranesi [open]"]);
    for (const t of ["I'm reading a lot these days.", "I'm reading up on Python decorators."]) assert.deepEqual(keys(t), [], t);
    // A membership per group, ended by leaving it; a plan or someone else's joining is none.
    assert.deepEqual(keys("I joined the climbing club last month."), ["User | member of climbing club = member [open]"]);
    assert.deepEqual(keys("I left the climbing club."), ["User | member of climbing club =  (ends) [open]"]);
    for (const t of ["I'm going to join the chess club.", "My friend joined the club.", "I signed up for the Cardiff half."]) assert.deepEqual(keys(t), [], t);
    // Several days are one schedule, however it is said.
    assert.deepEqual(keys("My gym sessions are on Mondays and Thursdays now."), ["User | gym sessions = mondays and thursdays [open]"]);
    assert.deepEqual(keys("My gym sessions moved to Tuesdays and Fridays."), ["User | gym sessions = tuesdays and fridays [open]"]);
  });

  it("a value is no clause, nor the word that says it replaced another", () => {
    assert.deepEqual(keys("Only if we play Wingspan. It's my favourite game, I'd play it every week.", "Ruth"), ["Ruth | favourite game = wingspan"]);
    assert.deepEqual(keys("My favourite game, Wingspan, never gets old.", "Ruth"), ["Ruth | favourite game = wingspan"]);
    assert.deepEqual(keys("I finally sold the Uno! I bought a motorbike instead, a red Honda.", "Rafael"), ["Rafael | car = motorbike"]);
    // How a thing is, not what it is: a comparison, a degree, a condition with its circumstance.
    for (const t of ["My phone is dead by 3pm every day.", "My news is smaller: I got an offer.", "My sleep schedule is completely ruined.", "My knee is sore around the kneecap."]) assert.deepEqual(keys(t), [], t);
    assert.deepEqual(keys("My 5k personal best is 25:50."), ["User | 5k personal best = 25:50 [open]"]);
    assert.deepEqual(keys("My favourite colour is blue."), ["User | favourite colour = blue"]);
    assert.deepEqual(keys("My gym plan is cancelled."), ["User | gym plan = cancelled [open]"]);
  });

  it("a home in lower case: moved into, or ours with where it is; a schedule's day, also of \"the\" group", () => {
    assert.deepEqual(keys("All done! We're out of the bakery flat and into a place by the canal.", "Tobias"), ["Tobias | residence = place by the canal"]);
    assert.deepEqual(keys("The radiator in our flat above the bakery has given up again.", "Tobias"), ["Tobias | residence = flat above the bakery"]);
    assert.deepEqual(keys("I moved into a bigger flat near the river."), ["User | residence = flat near the river"]);
    assert.deepEqual(keys("I work mornings at the garden centre, so the money's steady."), ["User | employer = garden centre"]);
    assert.deepEqual(keys("I walked into a place near the station and ordered coffee."), []);
    assert.deepEqual(keys("We went to a house party."), []);
    assert.deepEqual(keys("The Spanish group's still on Wednesdays."), ["User | spanish group = wednesdays [open]"]);
    assert.deepEqual(keys("The bakery moved to Main Street."), []);
    // A description is no value: "mostly", "pretty", "a bit" …
    assert.deepEqual(keys("My Spanish is mostly menu words right now."), []);
  });
});
