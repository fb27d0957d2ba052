//! libmqic_r.so — FerryMQ's MQI library, client: tcp from MQSERVER. The calls are `ferry-mqi`'s; this crate
//! only gives them their exported names.

#![allow(unsafe_code, non_snake_case)]
#![deny(unsafe_op_in_unsafe_fn)]

ferry_mqi::export_mqi!(ferry_mqi::Mode::Client);
