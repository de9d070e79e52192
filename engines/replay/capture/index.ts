// Public surface of the capture parser: what the replay service's jobs, detectors and generator build on.
export { analyzeCaptureBytes, analyzeCaptureFile, CaptureAnalyzer } from './analyze.js';
export type { AnalyzeOptions, CaptureAnalysis, PacketCounts } from './analyze.js';
export { LIKELY_SERVER_PORTS, NO_TIMEOUTS, ZEEK_TIMEOUTS } from './flows.js';
export type { ConnectionRecord, DirectionStats, FlowTimeouts, TcpHandshake, TcpSummary, TransportName } from './flows.js';
export { parsedSerial } from './records.js';
export type {
  AppMetadata,
  DnsAnswer,
  DnsMessage,
  DnsQuestion,
  EdnsClientSubnet,
  FtpCommand,
  FtpSession,
  HttpTransaction,
  RdpSession,
  RfbSession,
  SmbSession,
  SshSession,
  TlsHandshake,
} from './app/index.js';
export type { TlsClientHello, TlsServerHello } from './app/tls.js';
export { CaptureReader, detectFormat, MAX_BLOCK_BYTES, MAX_PACKET_BYTES } from './reader.js';
export { feedBytes, feedFile } from './source.js';
export type { CaptureInfo, CaptureInterface, RawPacket } from './types.js';
export { analyzeConnLogBytes, analyzeConnLogFile, detectZeekConnLog, ZeekConnReader, MAX_ZEEK_LINE_BYTES, type ZeekForm } from './zeek.js';
export { WARNING_MESSAGES, type CaptureWarning, type WarningCode } from './warnings.js';
export { PcapFileWriter, PcapngBuilder, writePcap, type PacketToWrite } from './writer.js';
export { generateBackground, type BackgroundOptions, type BackgroundSummary } from './synthetic.js';
