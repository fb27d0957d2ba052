//! System objects every queue manager has from the moment it is created, with MQ's names.

use crate::qmgr::QueueManager;
use ferry_model::message::Persistence;
use ferry_model::objects::{DefinitionType, LocalQueueAttrs, QueueDefinition};
use ferry_model::reason::MqResult;

pub use ferry_model::system::*;

/// Defines the system objects (and the developer queues when asked).
pub(crate) fn define_system_objects(qm: &QueueManager, dev_queues: bool) -> MqResult<()> {
    let local = |descr: &str, max_depth: usize| {
        QueueDefinition::Local(LocalQueueAttrs {
            description: descr.to_owned(),
            max_depth,
            ..LocalQueueAttrs::default()
        })
    };
    qm.define_queue(
        DEAD_LETTER_QUEUE,
        local("Dead-letter queue", 999_999_999),
        false,
    )?;
    qm.define_queue(
        DEFAULT_LOCAL_QUEUE,
        local("Template for local queues", 5000),
        false,
    )?;
    qm.define_queue(
        ADMIN_COMMAND_QUEUE,
        local("Administrative commands", 5000),
        false,
    )?;
    qm.define_queue(
        CHANNEL_SYNC_QUEUE,
        QueueDefinition::Local(LocalQueueAttrs {
            description: "Channel synchronisation records".into(),
            def_persistence: Persistence::Persistent,
            max_depth: 100_000,
            ..LocalQueueAttrs::default()
        }),
        false,
    )?;
    qm.define_queue(
        DEFAULT_MODEL_QUEUE,
        QueueDefinition::Model(LocalQueueAttrs {
            description: "Model for temporary dynamic queues".into(),
            definition_type: DefinitionType::TemporaryDynamic,
            ..LocalQueueAttrs::default()
        }),
        false,
    )?;
    qm.define_queue(
        DURABLE_MODEL_QUEUE,
        QueueDefinition::Model(LocalQueueAttrs {
            description: "Model for permanent dynamic queues".into(),
            definition_type: DefinitionType::PermanentDynamic,
            def_persistence: Persistence::Persistent,
            ..LocalQueueAttrs::default()
        }),
        false,
    )?;
    if dev_queues {
        for name in DEV_QUEUES {
            qm.define_queue(name, local("Developer queue", 5000), false)?;
        }
    }
    Ok(())
}
