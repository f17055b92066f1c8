// CloudTalk's packet-level simulator helper (docs/packet-evaluator.md): reads a network and TCP flows on stdin,
// simulates them with ns-3 over connections opened beforehand, and prints each flow's start and finish time. The server runs one process per candidate
// binding, so a crash here costs one binding, never the server.
//
// Input, one statement per line ('#' starts a comment):
//   nodes N                                    nodes are 0..N-1 (hosts and switches alike: all route IP)
//   link A B RATE_BPS DELAY_NS QUEUE_A QUEUE_B  a point-to-point link; QUEUE_x is x's port buffer: 50p or 65536B
//   flow ID SRC DST BYTES START_NS [after ID...] a TCP transfer; with 'after' it starts START_NS after those finish;
//                                              SRC = DST is a local transfer, finished as it starts
//   run                                        simulate (the last line)
// Output:
//   flow ID START_S FINISH_S                   times from the simulation's start; FINISH_S is 'unfinished' when the
//                                              flow did not complete within the horizon
//   drops N                                    packets dropped at full switch or host port buffers
// Errors: 'error: line L: message' on stderr, exit status 2.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace {

// Longest simulated time: a flow not finished by then is reported as unfinished rather than simulated forever.
const double kHorizonSeconds = 600;
const uint16_t kFirstPort = 10000;

struct FlowSpec {
  std::string id;
  uint32_t src = 0;
  uint32_t dst = 0;
  uint64_t bytes = 0;
  uint64_t startNs = 0;
  std::vector<size_t> after;
  // Filled while simulating.
  size_t waitingFor = 0;
  uint64_t received = 0;
  double start = -1;
  double finish = -1;
  std::vector<size_t> dependents;
  Ptr<Socket> socket;
  uint64_t sent = 0;
  bool sending = false;
  bool handshakeSettled = false;
};

std::vector<FlowSpec> flows;
NodeContainer nodes;
std::vector<Ipv4Address> hostAddress;
uint64_t drops = 0;
size_t finished = 0;
// Connections are opened before the flows start, as between servers that keep them open (web search's aggregators
// and index servers do): a flow's start is its first data byte, not a SYN that an incast could drop. The warm-up
// ends 100 ms after the last connection opened, or, where a handshake is still in flight then (a long round trip),
// 100 ms after the last one settled; times are reported from its end.
const int64_t kQuietMs = 100;
// A handshake that neither completes nor fails within this long (no route, say) no longer holds the flows back.
const int64_t kMostHandshakeSeconds = 600;
Time warmUp;
size_t handshakes = 0;  // connections to open (flows between two nodes)
size_t settled = 0;     // connections opened, or failed
bool quietOver = false;
bool beginScheduled = false;

[[noreturn]] void Fail(size_t line, const std::string& message) {
  std::cerr << "error: line " << line << ": " << message << std::endl;
  std::exit(2);
}

uint64_t ParseCount(const std::string& word, size_t line, const std::string& what) {
  if (word.empty() || word.find_first_not_of("0123456789") != std::string::npos || word.size() > 18) {
    Fail(line, "invalid " + what + " '" + word + "': expected a whole number");
  }
  return std::stoull(word);
}

void CountDrop(Ptr<const Packet>) { drops++; }

void StartFlow(size_t index);

void Finish(size_t index) {
  FlowSpec& flow = flows[index];
  flow.finish = (Simulator::Now() - warmUp).GetSeconds();
  for (size_t dependent : flow.dependents) {
    FlowSpec& next = flows[dependent];
    if (--next.waitingFor == 0) {
      Simulator::Schedule(NanoSeconds(next.startNs), &StartFlow, dependent);
    }
  }
  if (++finished == flows.size()) {
    Simulator::Stop();
  }
}

void Received(size_t index, Ptr<const Packet> packet, const Address&) {
  FlowSpec& flow = flows[index];
  flow.received += packet->GetSize();
  if (flow.finish < 0 && flow.received >= flow.bytes) {
    Finish(index);
  }
}

// Keeps the socket's send buffer full until the flow's bytes are all handed to TCP.
void SendMore(size_t index) {
  FlowSpec& flow = flows[index];
  while (flow.sending && flow.sent < flow.bytes && flow.socket->GetTxAvailable() > 0) {
    uint32_t chunk = static_cast<uint32_t>(
        std::min<uint64_t>({flow.bytes - flow.sent, flow.socket->GetTxAvailable(), 65536}));
    int accepted = flow.socket->Send(Create<Packet>(chunk));
    if (accepted <= 0) {
      return;  // not connected yet, or full: the connect or send callback calls again
    }
    flow.sent += accepted;
  }
}

void SendCallback(size_t index, Ptr<Socket>, uint32_t) { SendMore(index); }

// Starts the flows that wait for no other: the warm-up is over.
void Begin() {
  warmUp = Simulator::Now();
  for (size_t i = 0; i < flows.size(); i++) {
    if (flows[i].after.empty()) {
      Simulator::Schedule(NanoSeconds(flows[i].startNs), &StartFlow, i);
    }
  }
  Simulator::Stop(Seconds(kHorizonSeconds));
}

void ScheduleBegin(Time after) {
  if (!beginScheduled) {
    beginScheduled = true;
    Simulator::Schedule(after, &Begin);
  }
}

// The quiet after the last connection opened is over: begin now if every handshake has settled, else once the last
// settles (Settle), and at the latest when a handshake has had its time.
void QuietOver() {
  quietOver = true;
  if (settled == handshakes) {
    ScheduleBegin(Seconds(0));
  } else {
    Simulator::Schedule(Seconds(kMostHandshakeSeconds), &ScheduleBegin, Seconds(0));
  }
}

// Each connection settles once: opened, refused, reset or failed. A flow whose connection did not open never finishes,
// which the output reports.
void Settle(size_t index) {
  FlowSpec& flow = flows[index];
  if (flow.handshakeSettled) {
    return;
  }
  flow.handshakeSettled = true;
  if (++settled == handshakes && quietOver) {
    ScheduleBegin(MilliSeconds(kQuietMs));
  }
}

void Connected(size_t index, Ptr<Socket>) {
  Settle(index);
  SendMore(index);
}

void ConnectionFailed(size_t index, Ptr<Socket>) { Settle(index); }

void Closed(size_t index, Ptr<Socket>) { Settle(index); }  // a reset before the handshake completed

void Connect(size_t index) {
  FlowSpec& flow = flows[index];
  flow.socket = Socket::CreateSocket(nodes.Get(flow.src), TcpSocketFactory::GetTypeId());
  flow.socket->Bind();
  flow.socket->SetConnectCallback(MakeBoundCallback(&Connected, index), MakeBoundCallback(&ConnectionFailed, index));
  flow.socket->SetSendCallback(MakeBoundCallback(&SendCallback, index));
  flow.socket->SetCloseCallbacks(MakeBoundCallback(&Closed, index), MakeBoundCallback(&Closed, index));
  if (flow.socket->Connect(InetSocketAddress(hostAddress[flow.dst], kFirstPort + index)) != 0) {
    Settle(index);  // no route: no callback will come
  }
}

void StartFlow(size_t index) {
  FlowSpec& flow = flows[index];
  flow.start = (Simulator::Now() - warmUp).GetSeconds();
  if (flow.src == flow.dst) {
    Finish(index);  // a local transfer: no network involved
    return;
  }
  flow.sending = true;
  SendMore(index);
}

}  // namespace

int main() {
  Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
  Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
  // Linux's minimum retransmission timeout (ns-3 defaults to 1 s): incast stalls last as long as on real hosts.
  Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));

  struct LinkSpec {
    uint32_t a, b;
    uint64_t rate, delayNs;
    std::string queueA, queueB;
  };
  std::vector<LinkSpec> links;
  std::map<std::string, size_t> flowIndex;
  uint64_t nodeCount = 0;
  bool haveNodes = false, ran = false;
  std::string text;
  size_t line = 0;
  auto node = [&](const std::string& word, size_t at) {
    uint64_t n = ParseCount(word, at, "node");
    if (n >= nodeCount) {
      Fail(at, "node " + word + " is not below 'nodes " + std::to_string(nodeCount) + "'");
    }
    return static_cast<uint32_t>(n);
  };
  auto queue = [&](const std::string& word, size_t at) {
    char unit = word.empty() ? ' ' : word.back();
    if ((unit != 'p' && unit != 'B') || ParseCount(word.substr(0, word.size() - 1), at, "buffer") == 0) {
      Fail(at, "invalid buffer '" + word + "': expected packets like 50p or bytes like 65536B");
    }
    return word;
  };
  while (std::getline(std::cin, text)) {
    line++;
    std::string::size_type hash = text.find('#');
    std::istringstream in(hash == std::string::npos ? text : text.substr(0, hash));
    std::vector<std::string> words;
    for (std::string w; in >> w;) {
      words.push_back(w);
    }
    if (words.empty()) {
      continue;
    }
    if (ran) {
      Fail(line, "nothing may follow 'run'");
    }
    const std::string& verb = words[0];
    if (verb == "nodes" && words.size() == 2 && !haveNodes) {
      nodeCount = ParseCount(words[1], line, "node count");
      if (nodeCount < 2 || nodeCount > 100000) {
        Fail(line, "a network has 2 to 100000 nodes");
      }
      haveNodes = true;
    } else if (verb == "nodes") {
      Fail(line, haveNodes ? "'nodes' is given twice" : "expected 'nodes N'");
    } else if (!haveNodes) {
      Fail(line, "the first statement must be 'nodes N'");
    } else if (verb == "link") {
      if (words.size() != 7) {
        Fail(line, "expected 'link A B RATE_BPS DELAY_NS QUEUE_A QUEUE_B'");
      }
      LinkSpec link{node(words[1], line), node(words[2], line), ParseCount(words[3], line, "rate"),
                    ParseCount(words[4], line, "delay"), queue(words[5], line), queue(words[6], line)};
      if (link.a == link.b || link.rate == 0) {
        Fail(line, "a link joins two different nodes at a positive rate");
      }
      links.push_back(link);
    } else if (verb == "flow") {
      if (words.size() < 6 || (words.size() > 6 && words[6] != "after") || words.size() == 7) {
        Fail(line, "expected 'flow ID SRC DST BYTES START_NS [after ID...]'");
      }
      FlowSpec flow;
      flow.id = words[1];
      flow.src = node(words[2], line);
      flow.dst = node(words[3], line);
      flow.bytes = ParseCount(words[4], line, "size");
      flow.startNs = ParseCount(words[5], line, "start");
      if (flow.bytes == 0) {
        Fail(line, "a flow carries at least one byte");
      }
      if (flowIndex.count(flow.id) > 0) {
        Fail(line, "flow " + flow.id + " is defined twice");
      }
      for (size_t i = 7; i < words.size(); i++) {
        auto found = flowIndex.find(words[i]);
        if (found == flowIndex.end()) {
          Fail(line, "flow " + words[i] + " must be defined before a flow that waits for it");
        }
        flow.after.push_back(found->second);
      }
      if (flows.size() >= 55000) {
        Fail(line, "at most 55000 flows");
      }
      flowIndex[flow.id] = flows.size();
      flows.push_back(flow);
    } else if (verb == "run" && words.size() == 1) {
      ran = true;
    } else {
      Fail(line, "unknown statement '" + verb + "'; expected nodes, link, flow or run");
    }
  }
  if (!ran) {
    Fail(line + 1, "the input must end with 'run'");
  }

  nodes.Create(nodeCount);
  // IPv4 only: the topology's addresses are IPv4, and an IPv6 stack on every interface costs ~5% of the CPU time.
  InternetStackHelper stack;
  stack.SetIpv6StackInstall(false);
  stack.Install(nodes);
  Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");
  hostAddress.assign(nodeCount, Ipv4Address());
  TrafficControlHelper trafficControl;
  Ipv4InterfaceContainer interfaces;
  for (const LinkSpec& link : links) {
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(link.rate)));
    p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(link.delayNs)));
    NetDeviceContainer devices = p2p.Install(nodes.Get(link.a), nodes.Get(link.b));
    const std::string* sizes[] = {&link.queueA, &link.queueB};
    for (uint32_t end = 0; end < 2; end++) {
      Ptr<Queue<Packet>> queue = DynamicCast<PointToPointNetDevice>(devices.Get(end))->GetQueue();
      queue->SetMaxSize(QueueSize(*sizes[end]));
      queue->TraceConnectWithoutContext("Drop", MakeCallback(&CountDrop));
    }
    Ipv4InterfaceContainer assigned = addresses.Assign(devices);
    interfaces.Add(assigned);
    addresses.NewNetwork();
    // Without this the traffic-control layer's default queue disc (1000 packets) would absorb the incast that the
    // port buffers above are meant to show.
    trafficControl.Uninstall(devices);
    uint32_t ends[] = {link.a, link.b};
    for (uint32_t end = 0; end < 2; end++) {
      if (hostAddress[ends[end]] == Ipv4Address()) {
        hostAddress[ends[end]] = assigned.GetAddress(end);
      }
    }
  }
  Ipv4GlobalRoutingHelper::PopulateRoutingTables();
  // Warm ARP caches, as in a running data centre: otherwise the first packets of an incast queue behind ARP
  // resolution (3 pending packets per entry) and are dropped there instead of at the port buffers.
  NeighborCacheHelper neighbors;
  neighbors.PopulateNeighborCache(interfaces);  // the all-channels overload assumes an IPv6 stack too
  // Without queue discs a full port buffer stops the device's transmit queue and the traffic-control layer drops
  // what arrives meanwhile; the device queue drops only in a race with that. Count both.
  for (uint32_t n = 0; n < nodeCount; n++) {
    nodes.Get(n)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext("TcDrop", MakeCallback(&CountDrop));
  }

  // Connections open one every 20 us so that their handshakes never overflow a port; the flows start once they have
  // all settled, and at least 100 ms after the last one opened.
  for (size_t i = 0; i < flows.size(); i++) {
    FlowSpec& flow = flows[i];
    if (flow.src != flow.dst) {
      handshakes++;
      Simulator::Schedule(MicroSeconds(20 * i), &Connect, i);
    }
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), kFirstPort + i));
    ApplicationContainer apps = sink.Install(nodes.Get(flow.dst));
    apps.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&Received, i));
    flow.waitingFor = flow.after.size();
    for (size_t before : flow.after) {
      flows[before].dependents.push_back(i);
    }
  }
  Simulator::Schedule(MicroSeconds(20 * flows.size()) + MilliSeconds(kQuietMs), &QuietOver);
  // No stop before Begin, which comes at the latest kMostHandshakeSeconds after the quiet and sets the horizon.
  Simulator::Run();
  std::cout.precision(9);
  for (const FlowSpec& flow : flows) {
    std::cout << "flow " << flow.id << " " << flow.start << " ";
    if (flow.finish >= 0) {
      std::cout << flow.finish << "\n";
    } else {
      std::cout << "unfinished\n";
    }
  }
  std::cout << "drops " << drops << std::endl;
  // No Simulator::Destroy(): the process ends here, and tearing down every node, socket and packet first costs
  // CPU time in each of the hundreds of runs a placement search makes.
  std::_Exit(0);
}
