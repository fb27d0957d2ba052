//! System objects every queue manager has from the moment it is created, with MQ's names: a
//! table of definitions ([`system_definitions`]) that a new queue manager defines in order.

use crate::qmgr::QueueManager;
use ferry_model::message::Persistence;
use ferry_model::objects::{DefinitionType, LocalQueueAttrs, QueueDefinition};
use ferry_model::reason::MqResult;

pub use ferry_model::system::*;

fn local(descr: &str, max_depth: usize) -> QueueDefinition {
    QueueDefinition::Local(LocalQueueAttrs {
        description: descr.to_owned(),
        max_depth,
        ..LocalQueueAttrs::default()
    })
}

fn persistent_local(descr: &str, max_depth: usize) -> QueueDefinition {
    QueueDefinition::Local(LocalQueueAttrs {
        description: descr.to_owned(),
        def_persistence: Persistence::Persistent,
        max_depth,
        ..LocalQueueAttrs::default()
    })
}

fn model(
    descr: &str,
    definition_type: DefinitionType,
    persistence: Persistence,
) -> QueueDefinition {
    QueueDefinition::Model(LocalQueueAttrs {
        description: descr.to_owned(),
        definition_type,
        def_persistence: persistence,
        ..LocalQueueAttrs::default()
    })
}

/// The queues the queue manager's events, statistics and accounting messages go to.
fn monitoring_queues() -> [(&'static str, QueueDefinition); 6] {
    [
        (
            QMGR_EVENT_QUEUE,
            local("Queue manager events (AUTHOREV)", 3000),
        ),
        (CHANNEL_EVENT_QUEUE, local("Channel events (CHLEV)", 3000)),
        (
            PERFM_EVENT_QUEUE,
            local("Performance events (PERFMEV)", 3000),
        ),
        (COMMAND_EVENT_QUEUE, local("Command events (CMDEV)", 3000)),
        (
            STATISTICS_QUEUE,
            local("Statistics messages (STATMQI, STATQ)", 3000),
        ),
        (
            ACCOUNTING_QUEUE,
            local("Accounting messages (ACCTMQI, ACCTQ)", 3000),
        ),
    ]
}

/// The system objects, in the order they are defined (and the developer queues when asked).
pub fn system_definitions(dev_queues: bool) -> Vec<(&'static str, QueueDefinition)> {
    let mut defs = vec![
        (DEAD_LETTER_QUEUE, local("Dead-letter queue", 999_999_999)),
        (
            DEFAULT_LOCAL_QUEUE,
            local("Template for local queues", 5000),
        ),
        (ADMIN_COMMAND_QUEUE, local("Administrative commands", 5000)),
        (
            ferry_model::system::DEFAULT_INITIATION_QUEUE,
            local("Template for initiation queues", 1000),
        ),
        (
            ferry_model::system::CHANNEL_INITQ,
            local(
                "Channel initiation queue (sender channels start by themselves)",
                1000,
            ),
        ),
    ];
    defs.extend(monitoring_queues());
    defs.extend([
        (
            CHANNEL_SYNC_QUEUE,
            persistent_local("Channel synchronisation records", 100_000),
        ),
        (
            RETAINED_PUB_QUEUE,
            persistent_local(
                "Persistent retained publications",
                crate::qmgr::pubsub::retained::MAX_RETAINED,
            ),
        ),
        (
            DEFAULT_MODEL_QUEUE,
            model(
                "Model for temporary dynamic queues",
                DefinitionType::TemporaryDynamic,
                Persistence::NotPersistent,
            ),
        ),
        (
            DURABLE_MODEL_QUEUE,
            model(
                "Model for permanent dynamic queues",
                DefinitionType::PermanentDynamic,
                Persistence::Persistent,
            ),
        ),
        (
            NDURABLE_MODEL_QUEUE,
            model(
                "Model for the queues of managed non-durable subscriptions",
                DefinitionType::TemporaryDynamic,
                Persistence::NotPersistent,
            ),
        ),
    ]);
    defs.extend(templates_and_tool_queues());
    if dev_queues {
        defs.extend(DEV_QUEUES.map(|name| (name, local("Developer queue", 5000))));
    }
    defs
}

/// The alias and remote templates, the models MQ's tools name for replies, and the monitoring
/// queues FerryMQ does not write.
fn templates_and_tool_queues() -> Vec<(&'static str, QueueDefinition)> {
    use ferry_model::objects::{AliasQueueAttrs, RemoteQueueAttrs};
    let mut alias = AliasQueueAttrs::new(ferry_model::name::ObjectName::EMPTY);
    alias.description = "Template for alias queues".into();
    let remote = RemoteQueueAttrs {
        description: "Template for remote queue definitions".into(),
        ..RemoteQueueAttrs::default()
    };
    let mut defs = vec![
        (DEFAULT_ALIAS_QUEUE, QueueDefinition::Alias(alias)),
        (DEFAULT_REMOTE_QUEUE, QueueDefinition::Remote(remote)),
    ];
    for name in TOOL_MODEL_QUEUES {
        let descr = "Model for tools' reply queues";
        let def = model(
            descr,
            DefinitionType::TemporaryDynamic,
            Persistence::NotPersistent,
        );
        defs.push((name, def));
    }
    for name in QUIET_ADMIN_QUEUES {
        defs.push((
            name,
            local("Not written by FerryMQ (kept for MQ's tools)", 3000),
        ));
    }
    defs
}

/// Defines the system objects (and the developer queues when asked).
pub(crate) fn define_system_objects(qm: &QueueManager, dev_queues: bool) -> MqResult<()> {
    for (name, def) in system_definitions(dev_queues) {
        qm.define_queue(name, def, false)?;
    }
    define_default_channels(qm)?;
    let listener = ferry_model::objects::ListenerAttrs::default();
    qm.define_listener(ferry_model::system::DEFAULT_LISTENER, listener, true)?;
    let nl = ferry_model::objects::NamelistAttrs::default();
    qm.define_namelist(ferry_model::system::DEFAULT_NAMELIST, nl, true)?;
    let process = ferry_model::objects::ProcessAttrs::default();
    qm.define_process(ferry_model::system::DEFAULT_PROCESS, process, true)?;
    Ok(())
}

/// The channels DEFINE CHANNEL starts from without LIKE, one of each type (MQ's SYSTEM.DEF.*).
/// A sender without a CONNAME is a template and is not started; the back-stop CHLAUTH record
/// keeps clients off SYSTEM.DEF.SVRCONN, as in MQ.
fn define_default_channels(qm: &QueueManager) -> MqResult<()> {
    use ferry_model::objects::{ChannelAttrs, ChannelType};
    for t in [
        ChannelType::Sender,
        ChannelType::Receiver,
        ChannelType::ServerConn,
        ChannelType::ClientConn,
    ] {
        let attrs = ChannelAttrs {
            channel_type: t,
            ..ChannelAttrs::default()
        };
        qm.define_channel(ferry_model::system::default_channel(t), attrs, true)?;
    }
    Ok(())
}
