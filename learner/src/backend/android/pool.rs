//! The devices of a run, shared by its workers.
//! A worker leases a device for one request and gives it back.
//! So no device sits idle with a worker that has nothing to run while another waits.
//! A device remembers whose run its agent holds: that worker goes on where it stopped, any other
//! starts its run there anew.
//! A device that disconnects is set aside and taken back when its adb server lists it again.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{Mutex, Notify};

use super::adb::DeviceLink;
use super::agent::{AgentSetup, DeviceAgent};
use super::AndroidError;
use crate::backend::jvm::Experiment;

/// How long a worker waits for a device, and how often it looks for one that came back.
#[derive(Clone, Copy, Debug)]
pub struct Patience {
    /// A worker with no device for this long fails the run (the journal keeps what finished).
    pub wait_ms: u64,
    /// How often the adb servers are asked whether a lost device is back.
    pub poll_ms: u64,
}

/// One device of the run.
struct Slot {
    link: DeviceLink,
    /// The running agent, while no worker holds the device.
    agent: Option<DeviceAgent>,
    state: State,
    /// Whether the agent's jars are on the device since it was last seen.
    pushed: bool,
    /// Queries run here, for the report.
    runs: u64,
    /// Why the device was set aside, for the error when every device is gone.
    lost: Option<String>,
    /// The worker whose run the agent holds.
    owner: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Free,
    Leased,
    Gone,
}

/// A device a worker holds.
pub struct Lease {
    /// The device's index in the pool.
    pub index: usize,
    /// The device.
    pub link: DeviceLink,
    /// Its agent, once started.
    pub agent: Option<DeviceAgent>,
    /// Runs served under this lease.
    pub runs: u64,
    /// Whether the agent still holds this worker's run, as it left it.
    pub run: RunState,
}

/// Whether a leased device's agent holds the leasing worker's run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    /// The agent is where the worker left it.
    Intact,
    /// Another worker ran there since, or the agent is new: the run starts again.
    Lost,
}

/// What a device did in a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceUse {
    /// The device's serial.
    pub serial: String,
    /// Its adb server.
    pub server: String,
    /// Runs (reset to reset) it served.
    pub runs: u64,
    /// Whether it was gone at the end of the run.
    pub gone: bool,
}

/// The devices and the workers waiting for one, served first come first served.
#[derive(Default)]
struct Devices {
    slots: Vec<Slot>,
    /// Tickets of the waiting workers, oldest first.
    queue: std::collections::VecDeque<u64>,
    next_ticket: u64,
}

impl std::ops::Deref for Devices {
    type Target = Vec<Slot>;
    fn deref(&self) -> &Vec<Slot> {
        &self.slots
    }
}

impl std::ops::DerefMut for Devices {
    fn deref_mut(&mut self) -> &mut Vec<Slot> {
        &mut self.slots
    }
}

/// The devices of a run.
pub struct Pool {
    slots: Mutex<Devices>,
    /// How many devices the run has, gone or not.
    size: usize,
    changed: Notify,
    setup: AgentSetup,
    experiment: Arc<Experiment>,
    patience: Patience,
}

impl Pool {
    /// A pool of `links`, whose agents start by `setup` with `experiment`.
    pub fn new(
        links: Vec<DeviceLink>,
        setup: AgentSetup,
        experiment: Arc<Experiment>,
        patience: Patience,
    ) -> Pool {
        let slots = links
            .into_iter()
            .map(|link| Slot {
                link,
                agent: None,
                state: State::Free,
                pushed: false,
                runs: 0,
                lost: None,
                owner: None,
            })
            .collect::<Vec<Slot>>();
        Pool {
            size: slots.len(),
            slots: Mutex::new(Devices {
                slots,
                ..Devices::default()
            }),
            changed: Notify::new(),
            setup,
            experiment,
            patience,
        }
    }

    /// How many devices the run has, gone or not.
    pub fn size(&self) -> usize {
        self.size
    }

    /// A free device with a running agent for `worker`, `preferred` if it is free; waits
    /// while none is, taking back devices that return, and fails after the pool's patience.
    pub async fn acquire(&self, worker: usize, preferred: usize) -> Result<Lease, AndroidError> {
        let ticket = {
            let mut devices = self.slots.lock().await;
            let ticket = devices.next_ticket;
            devices.next_ticket += 1;
            devices.queue.push_back(ticket);
            ticket
        };
        let lease = self.wait_for_device(ticket, worker, preferred).await;
        self.slots.lock().await.queue.retain(|it| *it != ticket);
        self.changed.notify_waiters();
        lease
    }

    async fn wait_for_device(
        &self,
        ticket: u64,
        worker: usize,
        preferred: usize,
    ) -> Result<Lease, AndroidError> {
        let since = Instant::now();
        loop {
            if let Some(index) = self.take_free(ticket, preferred).await {
                match self.ready(index, worker).await {
                    Ok(lease) => return Ok(lease),
                    Err(error) if error.is_experiment() => {
                        self.set_aside(index, &error.to_string()).await;
                        return Err(error);
                    }
                    // Tried again once its server lists it at a later poll; the worker
                    // waits again at the head of the queue.
                    Err(error) => {
                        self.set_aside(index, &error.to_string()).await;
                        self.slots.lock().await.queue.push_front(ticket);
                    }
                }
                continue;
            }
            if since.elapsed() >= Duration::from_millis(self.patience.wait_ms) {
                return Err(AndroidError::NoDevice {
                    waited_ms: self.patience.wait_ms,
                    why: self.why_gone().await,
                });
            }
            let poll = Duration::from_millis(self.patience.poll_ms);
            let _ = tokio::time::timeout(poll, self.changed.notified()).await;
            self.look_for_returns().await;
        }
    }

    /// The device `serial` for `worker`, if it is free now: a lease to run something on that
    /// device in particular, after learning. `None` when it is gone or leased.
    pub async fn acquire_device(
        &self,
        serial: &str,
        worker: usize,
    ) -> Option<Result<Lease, AndroidError>> {
        let index = {
            let mut slots = self.slots.lock().await;
            let index = slots
                .iter()
                .position(|it| it.link.serial == serial && it.state == State::Free)?;
            slots[index].state = State::Leased;
            index
        };
        let lease = self.ready(index, worker).await;
        if let Err(error) = &lease {
            self.set_aside(index, &error.to_string()).await;
        }
        Some(lease)
    }

    /// Gives a leased device back, with its agent, which holds `worker`'s run.
    /// No other device holds that run any more: a worker's run goes on where it last ran, so
    /// a device it ran on before (an earlier run, or this one before it moved) is behind.
    pub async fn release(&self, lease: Lease, worker: usize) {
        let mut slots = self.slots.lock().await;
        for other in slots.iter_mut().filter(|it| it.owner == Some(worker)) {
            other.owner = None;
        }
        let slot = &mut slots[lease.index];
        slot.agent = lease.agent;
        slot.owner = Some(worker);
        slot.runs += lease.runs;
        slot.state = State::Free;
        drop(slots);
        self.changed.notify_waiters();
    }

    /// Sets a leased device aside after `why` went wrong: if its server still lists it, only
    /// the agent is gone and the device is free again (the next lease starts a new agent);
    /// otherwise the device is gone until it returns.
    pub async fn lose(&self, index: usize, agent: Option<DeviceAgent>, why: &str) {
        let link = self.slots.lock().await[index].link.clone();
        if let Some(agent) = agent {
            drop(agent); // ends the adb session, and with it the agent if it still runs
        }
        let listed = listed(&link).await;
        let mut slots = self.slots.lock().await;
        let slot = &mut slots[index];
        slot.agent = None;
        slot.owner = None;
        slot.lost = Some(why.to_owned());
        // Files on a device outlive a disconnection: what was pushed stays.
        slot.state = if listed { State::Free } else { State::Gone };
        drop(slots);
        self.changed.notify_waiters();
    }

    async fn set_aside(&self, index: usize, why: &str) {
        let mut slots = self.slots.lock().await;
        let slot = &mut slots[index];
        slot.state = State::Gone;
        slot.lost = Some(why.to_owned());
    }

    /// What each device did.
    pub async fn uses(&self) -> Vec<DeviceUse> {
        self.slots
            .lock()
            .await
            .iter()
            .map(|slot| DeviceUse {
                serial: slot.link.serial.clone(),
                server: slot.link.server.name.clone(),
                runs: slot.runs,
                gone: slot.state == State::Gone,
            })
            .collect()
    }

    /// Stops every agent no worker holds.
    pub async fn shutdown(&self) {
        let mut stopping = Vec::new();
        for slot in self.slots.lock().await.iter_mut() {
            if let Some(agent) = slot.agent.take() {
                stopping.push((agent, slot.link.clone()));
            }
        }
        for (agent, link) in stopping {
            agent.shutdown(&link).await;
        }
    }

    async fn take_free(&self, ticket: u64, preferred: usize) -> Option<usize> {
        let mut slots = self.slots.lock().await;
        // First come first served: the n oldest waiting workers share the n free devices.
        let ahead = slots.queue.iter().position(|it| *it == ticket)?;
        let free_count = slots.iter().filter(|it| it.state == State::Free).count();
        if ahead >= free_count {
            return None;
        }
        let free = |index: &usize| slots[*index].state == State::Free;
        let index = Some(preferred)
            .filter(free)
            .or_else(|| (0..slots.len()).find(free))?;
        slots[index].state = State::Leased;
        slots.queue.remove(ahead);
        Some(index)
    }

    /// A lease of the (leased) device `index` for `worker`, its jars pushed and its agent
    /// started.
    async fn ready(&self, index: usize, worker: usize) -> Result<Lease, AndroidError> {
        let (link, agent, pushed, owner) = {
            let mut slots = self.slots.lock().await;
            let slot = &mut slots[index];
            (
                slot.link.clone(),
                slot.agent.take(),
                slot.pushed,
                slot.owner,
            )
        };
        if let Some(agent) = agent {
            return Ok(Lease {
                index,
                link,
                agent: Some(agent),
                runs: 0,
                run: if owner == Some(worker) {
                    RunState::Intact
                } else {
                    RunState::Lost
                },
            });
        }
        if !pushed {
            self.setup.push(&link).await?;
            self.slots.lock().await[index].pushed = true;
        }
        let agent = self.setup.start(&link, &self.experiment).await?;
        Ok(Lease {
            index,
            link,
            agent: Some(agent),
            runs: 0,
            run: RunState::Lost,
        })
    }

    async fn look_for_returns(&self) {
        let gone: Vec<(usize, DeviceLink)> = self
            .slots
            .lock()
            .await
            .iter()
            .enumerate()
            .filter(|(_, slot)| slot.state == State::Gone)
            .map(|(index, slot)| (index, slot.link.clone()))
            .collect();
        for (index, link) in gone {
            if listed(&link).await {
                self.slots.lock().await[index].state = State::Free;
            }
        }
    }

    async fn why_gone(&self) -> String {
        self.slots
            .lock()
            .await
            .iter()
            .map(|slot| {
                format!(
                    "{} ({}): {}",
                    slot.link.serial,
                    slot.link.server.name,
                    slot.lost.as_deref().unwrap_or("busy")
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// Whether the device's adb server lists it as usable.
async fn listed(link: &DeviceLink) -> bool {
    link.server.devices().await.is_ok_and(|devices| {
        devices
            .iter()
            .any(|it| it.serial == link.serial && it.state == "device")
    })
}
