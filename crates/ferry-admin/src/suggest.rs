//! "Did you mean …?" for misspelt MQSC: the closest known verb, object type or attribute
//! keyword to a word the parser did not know, within a small edit distance (adjacent letters
//! swapped count as one edit, so DISPALY finds DISPLAY). And completion for the admin shell:
//! what may come at the cursor (a verb, an object type, an object's name, a keyword).

/// The verbs, as the parser knows them.
pub const VERBS: &[&str] = &[
    "DEFINE", "ALTER", "DELETE", "DISPLAY", "CLEAR", "START", "STOP", "RESET", "RESOLVE", "SET",
    "REFRESH", "DUMP",
];

/// The object types.
pub const OBJECTS: &[&str] = &[
    "QLOCAL", "QALIAS", "QREMOTE", "QMODEL", "QUEUE", "QMGR", "CHANNEL", "LISTENER", "QSTATUS",
    "CONN", "QMSTATUS", "LSSTATUS", "CHSTATUS", "AUTHINFO", "AUTHREC", "ENTAUTH", "SECURITY",
    "CHLAUTH", "SUB", "SBSTATUS", "TOPIC", "TPSTATUS", "TOPICSTR", "NAMELIST", "PROCESS",
    "CMDSERV",
];

/// Every attribute and control keyword of any object (a test keeps it complete).
pub const KEYWORDS: &[&str] = &[
    "ACCTINT",
    "ACCTMQI",
    "ACCTQ",
    "ACTCONN",
    "ADDRESS",
    "ADDRLIST",
    "ADMIN",
    "ADOPTCTX",
    "ALL",
    "ALTDATE",
    "ALTTIME",
    "APPLICID",
    "APPLTAG",
    "APPLTYPE",
    "AUTHADD",
    "AUTHINFO",
    "AUTHLIST",
    "AUTHOREV",
    "AUTHRMV",
    "AUTHTYPE",
    "BACKLOG",
    "BATCHES",
    "BATCHINT",
    "BATCHLIM",
    "BATCHSZ",
    "BOQNAME",
    "BOTHRESH",
    "BROWSE",
    "CCSID",
    "CHANNEL",
    "CHCKCLNT",
    "CHCKLOCL",
    "CHKPTS",
    "CHLAUTH",
    "CHLEV",
    "CHLTYPE",
    "CHSTADA",
    "CHSTATI",
    "CLNTUSER",
    "CMDEV",
    "CMDLEVEL",
    "COMPMSG",
    "COMPRESS",
    "CONGCTL",
    "CONN",
    "CONNAME",
    "CONNAUTH",
    "CONNDATE",
    "CONNOPTS",
    "CONNS",
    "CONNTIME",
    "CONTROL",
    "CRDATE",
    "CRTIME",
    "CURDEPTH",
    "CURSEQNO",
    "DAMAGED",
    "DEADQ",
    "DEFPRESP",
    "DEFPRTY",
    "DEFPSIST",
    "DEFREADA",
    "DEFSOPT",
    "DEFXMITQ",
    "DESCR",
    "DEST",
    "DESTCORL",
    "DESTQMGR",
    "DISCINT",
    "DLQMSGS",
    "DURABLE",
    "DURSUB",
    "ENTITY",
    "ENTTYPE",
    "ENVRDATA",
    "EXTCONN",
    "FAILDLAY",
    "FAILED",
    "FORCE",
    "GET",
    "GETS",
    "GROUP",
    "HARDENBO",
    "HBINT",
    "INITQ",
    "INPUT",
    "INQUIRE",
    "IPADDR",
    "IPPROCS",
    "LASTERR",
    "LGETDATE",
    "LGETTIME",
    "LIKE",
    "LISTENER",
    "LMSGDATE",
    "LMSGTIME",
    "LOCLADDR",
    "LOGERR",
    "LOGRECS",
    "LOGSPACE",
    "LOGSYNCS",
    "LOGTYPE",
    "LONGRTY",
    "LONGTMR",
    "LPUBDATE",
    "LPUBTIME",
    "LPUTDATE",
    "LPUTTIME",
    "LSTMSGDA",
    "LSTMSGTI",
    "MATCH",
    "MAXCONNS",
    "MAXDEPTH",
    "MAXDYNQ",
    "MAXDYNQC",
    "MAXHANDS",
    "MAXINST",
    "MAXINSTC",
    "MAXMSGL",
    "MAXUMSGS",
    "MCAUSER",
    "MDURMDL",
    "MNDURMDL",
    "MSGDLVSQ",
    "MSGS",
    "NAMCOUNT",
    "NAMELIST",
    "NAMES",
    "NETTIME",
    "NLTYPE",
    "NOHARDENBO",
    "NOPURGE",
    "NOREPLACE",
    "NOSHARE",
    "NOTRIGGER",
    "NPMSGDLV",
    "NPMSPEED",
    "NUMMSGS",
    "NUMPUBS",
    "OBJNAME",
    "OBJTYPE",
    "OPENOPTS",
    "OPPROCS",
    "OUTPUT",
    "PASSWORD",
    "PERFMEV",
    "PLATFORM",
    "PMSGDLV",
    "PORT",
    "PRINCIPAL",
    "PROCESS",
    "PROFILE",
    "PROTOCOL",
    "PSPROP",
    "PUB",
    "PURGE",
    "PUT",
    "PUTS",
    "QDEPTHHI",
    "QDEPTHLO",
    "QDPHIEV",
    "QDPLOEV",
    "QDPMAXEV",
    "QMGR",
    "QMNAME",
    "QSVCIEV",
    "QSVCINT",
    "QUEUE",
    "REPLACE",
    "REQONLY",
    "RETAINED",
    "RNAME",
    "RQMNAME",
    "SCMDSERV",
    "SELECTOR",
    "SET",
    "SHARE",
    "SHARECNV",
    "SHORTRTY",
    "SHORTTMR",
    "SSLCAUTH",
    "SSLCIPH",
    "SSLPEER",
    "STARTDA",
    "STARTTI",
    "STATINT",
    "STATMQI",
    "STATQ",
    "STATUS",
    "SUB",
    "SUBID",
    "SUBLEVEL",
    "SUBTYPE",
    "SUBUSER",
    "TARGET",
    "TARGQ",
    "TARGTYPE",
    "TOPIC",
    "TOPICOBJ",
    "TOPICSTR",
    "TRIGDATA",
    "TRIGDPTH",
    "TRIGGER",
    "TRIGMPRI",
    "TRIGTYPE",
    "TRPTYPE",
    "TYPE",
    "UNCOM",
    "UOWMSGS",
    "USAGE",
    "USECLTID",
    "USEDLQ",
    "USERDATA",
    "USERID",
    "USERLIST",
    "USERSRC",
    "VARUSER",
    "WARN",
    "WHERE",
    "WILDCARD",
    "WSCHEMA",
    "XMITQ",
    "XQTIME",
];

/// Optimal string alignment distance (Levenshtein with adjacent transpositions).
fn distance(a: &[u8], b: &[u8]) -> usize {
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, v) in d[0].iter_mut().enumerate() {
        *v = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// The candidate closest to `word` (one edit for words of up to four letters, two beyond),
/// if any is close enough.
pub(crate) fn closest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let w = word.to_ascii_uppercase();
    let limit = if w.len() <= 4 { 1 } else { 2 };
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    if candidates.contains(&w.as_str()) {
        return None;
    }
    let scored = candidates
        .into_iter()
        .filter(|c| *c != w)
        .map(|c| (distance(w.as_bytes(), c.as_bytes()), c));
    scored
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// `"; did you mean X?"` when a candidate is close, else nothing.
pub(crate) fn hint<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(word, candidates).map_or_else(String::new, |c| format!("; did you mean {c}?"))
}

/// Completions for `line` with the cursor at byte `pos`: where the word being typed starts,
/// and the words it may become — a verb first, then an object type, then (inside the object's
/// parentheses) one of `names`, then attribute keywords. Upper case, as MQSC writes them.
pub fn complete(line: &str, pos: usize, names: &[String]) -> (usize, Vec<String>) {
    let before = &line[..pos.min(line.len())];
    let start = before
        .rfind(|c: char| c.is_whitespace() || c == '(')
        .map_or(0, |i| i + 1);
    let word = before[start..].to_ascii_uppercase();
    let head = &before[..start];
    let tokens = head
        .split(|c: char| c.is_whitespace() || c == '(')
        .filter(|t| !t.is_empty());
    let done = tokens.count();
    let in_name = head.ends_with('(') && done == 2;
    let pool: Vec<&str> = match (done, in_name) {
        (0, _) => VERBS.to_vec(),
        (1, _) => OBJECTS.to_vec(),
        (_, true) => names.iter().map(String::as_str).collect(),
        _ => KEYWORDS.to_vec(),
    };
    let mut out: Vec<String> = pool
        .into_iter()
        .filter(|w| w.to_ascii_uppercase().starts_with(&word))
        .map(str::to_owned)
        .collect();
    out.sort();
    out.dedup();
    (start, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_find_their_word_and_far_ones_nothing() {
        assert_eq!(closest("DISPALY", VERBS.iter().copied()), Some("DISPLAY"));
        assert_eq!(closest("QLOCL", OBJECTS.iter().copied()), Some("QLOCAL"));
        assert_eq!(
            closest("MAXDEPHT", KEYWORDS.iter().copied()),
            Some("MAXDEPTH")
        );
        assert_eq!(
            closest("descr", KEYWORDS.iter().copied()),
            None,
            "an exact word is no suggestion"
        );
        assert_eq!(closest("BANANA", VERBS.iter().copied()), None);
        assert_eq!(closest("GTE", KEYWORDS.iter().copied()), Some("GET"));
    }

    #[test]
    fn completion_offers_what_may_come_at_the_cursor() {
        let names = vec![
            "APP.IN".to_owned(),
            "APP.OUT".to_owned(),
            "OTHER".to_owned(),
        ];
        assert_eq!(complete("dis", 3, &names), (0, vec!["DISPLAY".to_owned()]));
        assert_eq!(
            complete("DISPLAY QL", 10, &names),
            (8, vec!["QLOCAL".to_owned()])
        );
        let (at, c) = complete("DISPLAY QLOCAL(AP", 17, &names);
        assert_eq!(
            (at, c),
            (15, vec!["APP.IN".to_owned(), "APP.OUT".to_owned()])
        );
        let (at, c) = complete("DEFINE QLOCAL(X) MAXDE", 22, &names);
        assert_eq!((at, c), (17, vec!["MAXDEPTH".to_owned()]));
    }

    #[test]
    fn every_keyword_an_object_shows_is_known() {
        use ferry_model::objects::{
            ChannelAttrs, ListenerAttrs, LocalQueueAttrs, RemoteQueueAttrs,
        };
        let n = ferry_core::ObjectName::EMPTY;
        let mut shown =
            crate::attrs::local_fields(&n, &LocalQueueAttrs::default(), false, Some((0, 0, 0)));
        shown.extend(crate::attrs::remote_fields(
            &n,
            &RemoteQueueAttrs::default(),
        ));
        shown.extend(crate::attrs::channel_fields(&n, &ChannelAttrs::default()));
        shown.extend(crate::attrs::listener_fields(&n, &ListenerAttrs::default()));
        shown.extend(crate::exec::definitions::namelist_fields(
            &n,
            &Default::default(),
        ));
        shown.extend(crate::exec::definitions::process_fields(
            &n,
            &Default::default(),
        ));
        for f in shown {
            assert!(
                KEYWORDS.contains(&f.key.as_str()),
                "{} is missing from KEYWORDS",
                f.key
            );
        }
        for c in crate::attrs::CONTROL {
            assert!(KEYWORDS.contains(&c), "{c} is missing from KEYWORDS");
        }
    }
}
