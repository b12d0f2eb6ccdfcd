package io.jvmsentinel.lab;

import java.util.function.LongUnaryOperator;

/**
 * Hot code for the code cache scenarios: {@link GeneratedCode} loads a fresh copy per round and
 * calls it until the JIT has compiled it, so every copy needs its own compiled methods (nmethods).
 * The methods are long straight-line arithmetic, too large to be inlined into one another, so each
 * copy takes tens of KB of code cache (C1 profiled and C2 versions of each). Public only because
 * copies live in their own runtime package; not an API.
 */
public final class HotCodeTemplate implements LongUnaryOperator {

  private long state = 17;

  @Override
  public long applyAsLong(long seed) {
    long x = state ^ seed;
    x = m0(x) + m1(x) + m2(x) + m3(x) + m4(x) + m5(x) + m6(x) + m7(x);
    state = x;
    return x;
  }

  static long m0(long x) {
    x = (x << 31) - (x >>> 12) + 0xA6A3A456513270FL;
    x = (x ^ (x >>> 27)) * 0x5D9DC9F1818E811L;
    x = x * 5 + (x >> 7);
    x = (x ^ (x >>> 8)) * 0x6CAD4A28D116ECFL;
    x = x * 17 + (x >> 4);
    x = x * 28 + (x >> 19);
    x = (x ^ (x >>> 18)) * 0x4A23D592217BEADL;
    x += Long.rotateLeft(x, 18) ^ 0x4EF8AA392276659L;
    x = (x ^ (x >>> 19)) * 0x301850CA38FD547L;
    x = (x ^ (x >>> 18)) * 0x907A70C1012F037L;
    x = x * 34 + (x >> 7);
    x = (x << 15) - (x >>> 40) + 0x7403E43EC66A787L;
    x = (x << 8) - (x >>> 53) + 0xB2F14C92E05319BL;
    x = (x ^ (x >>> 19)) * 0x7EBFF2086734721L;
    if ((x & 1) == 0) {
      x = ~x + 41;
    } else {
      x ^= 0x12BD4ACFAECBD39L;
    }
    x = x * 13 + (x >> 14);
    if ((x & 1) == 0) {
      x = ~x + 5;
    } else {
      x ^= 0xAB1031DF646E1F5L;
    }
    x = x * 53 + (x >> 19);
    x = (x << 23) - (x >>> 25) + 0x7F2614498289FCDL;
    x = (x ^ (x >>> 27)) * 0x451ABD8F1D69ED7L;
    x = (x ^ (x >>> 2)) * 0x4F426DCB394FB37L;
    x = (x << 23) - (x >>> 27) + 0xAB2CD31E3151289L;
    x = (x ^ (x >>> 31)) * 0x2B0537E5AFFB229L;
    if ((x & 3) == 0) {
      x = ~x + 16;
    } else {
      x ^= 0x4995239C4AAEAC1L;
    }
    x += Long.rotateLeft(x, 13) ^ 0xDF1582BEAB477D3L;
    x = (x ^ (x >>> 6)) * 0x8CA818166D22877L;
    x += Long.rotateLeft(x, 27) ^ 0x8CDB305DD2E1609L;
    if ((x & 3) == 0) {
      x = ~x + 46;
    } else {
      x ^= 0x616499CE25A7605L;
    }
    return x;
  }

  static long m1(long x) {
    x += Long.rotateLeft(x, 3) ^ 0x3B6186726BB7DBDL;
    x = (x ^ (x >>> 16)) * 0x2EAE05C96D0CC5FL;
    x = (x << 1) - (x >>> 12) + 0x88DAF406B4013EFL;
    x = x * 23 + (x >> 19);
    if ((x & 15) == 0) {
      x = ~x + 58;
    } else {
      x ^= 0xF3AED0BC7AC1491L;
    }
    if ((x & 15) == 0) {
      x = ~x + 28;
    } else {
      x ^= 0x7B451451A81682DL;
    }
    x = (x ^ (x >>> 7)) * 0x3571810FC132D0DL;
    x += Long.rotateLeft(x, 4) ^ 0xD7598599C94309L;
    x = (x ^ (x >>> 19)) * 0x19F9919895FD7B3L;
    x = x * 7 + (x >> 1);
    x += Long.rotateLeft(x, 21) ^ 0x58EE857F4998D7DL;
    if ((x & 15) == 0) {
      x = ~x + 10;
    } else {
      x ^= 0x7CF2072D953EE27L;
    }
    if ((x & 1) == 0) {
      x = ~x + 22;
    } else {
      x ^= 0x24E4E2515FC899FL;
    }
    x = (x << 24) - (x >>> 19) + 0xD42FDDB7A86F7A3L;
    x = x * 16 + (x >> 1);
    x += Long.rotateLeft(x, 23) ^ 0x6EC41AEA057543L;
    x = (x ^ (x >>> 23)) * 0x84B5A8142D87209L;
    x += Long.rotateLeft(x, 12) ^ 0x8857F9A3908F227L;
    x += Long.rotateLeft(x, 20) ^ 0xFC241D0C9D488B1L;
    x += Long.rotateLeft(x, 27) ^ 0xCDA6C6FBD685167L;
    x += Long.rotateLeft(x, 17) ^ 0xBB2313F5B06258FL;
    x = (x ^ (x >>> 26)) * 0x425940578E4B98DL;
    x = x * 25 + (x >> 31);
    x = (x << 3) - (x >>> 17) + 0x3A129171A26F889L;
    x += Long.rotateLeft(x, 11) ^ 0x9FC2D0A7B8F2AB5L;
    if ((x & 1) == 0) {
      x = ~x + 44;
    } else {
      x ^= 0xCCB573D5810D60FL;
    }
    x = (x ^ (x >>> 30)) * 0xB624677C8450071L;
    if ((x & 7) == 0) {
      x = ~x + 14;
    } else {
      x ^= 0xCA04C796F15B6ADL;
    }
    return x;
  }

  static long m2(long x) {
    x = (x ^ (x >>> 26)) * 0x7691B066555ABFFL;
    x = (x ^ (x >>> 24)) * 0xFE3C9C82B855C1FL;
    x = (x ^ (x >>> 5)) * 0x77216E9E7A46309L;
    x = x * 41 + (x >> 27);
    x += Long.rotateLeft(x, 18) ^ 0x57A40B2188287FL;
    x = (x ^ (x >>> 17)) * 0x23A5EF8EF02090BL;
    x += Long.rotateLeft(x, 27) ^ 0x72A98D3606DEFDL;
    x += Long.rotateLeft(x, 10) ^ 0xC38084A3D93FD4DL;
    x = (x << 18) - (x >>> 29) + 0x218E0B7D58DCDB5L;
    x = (x << 29) - (x >>> 32) + 0x9556585A997F351L;
    x = x * 37 + (x >> 5);
    if ((x & 3) == 0) {
      x = ~x + 14;
    } else {
      x ^= 0x101B819BCA3CB7L;
    }
    x += Long.rotateLeft(x, 5) ^ 0xB9A64429E7D6B37L;
    x = x * 23 + (x >> 2);
    x = (x ^ (x >>> 29)) * 0x3F9D52F0E8BEC95L;
    x = (x << 2) - (x >>> 52) + 0x81F98B51905D591L;
    x = x * 51 + (x >> 1);
    if ((x & 3) == 0) {
      x = ~x + 42;
    } else {
      x ^= 0x816BEE0F92E2339L;
    }
    x = (x << 15) - (x >>> 35) + 0xCEAF491888564E9L;
    x = x * 18 + (x >> 31);
    x = x * 15 + (x >> 29);
    if ((x & 1) == 0) {
      x = ~x + 28;
    } else {
      x ^= 0x50E40D5712EA6B3L;
    }
    x += Long.rotateLeft(x, 14) ^ 0xAB6286C3672D6AFL;
    x = (x ^ (x >>> 29)) * 0xF0836082789D059L;
    x += Long.rotateLeft(x, 9) ^ 0xF7B103D23231E1FL;
    x += Long.rotateLeft(x, 24) ^ 0xE28AF6065F42987L;
    x += Long.rotateLeft(x, 22) ^ 0x2955D6F3945336BL;
    x = x * 24 + (x >> 13);
    return x;
  }

  static long m3(long x) {
    x = (x << 3) - (x >>> 49) + 0x4FCD555DAF106DL;
    x = x * 31 + (x >> 15);
    x = (x << 17) - (x >>> 42) + 0x83239EF4BA2E161L;
    x = (x ^ (x >>> 30)) * 0xF8C110F3A828159L;
    x = (x ^ (x >>> 9)) * 0xE7E8F9F0A227385L;
    x = (x << 25) - (x >>> 11) + 0x6C18D98D1DCEC53L;
    if ((x & 15) == 0) {
      x = ~x + 37;
    } else {
      x ^= 0x83C8CB2EB4ED2E3L;
    }
    x = (x << 3) - (x >>> 20) + 0xCCB1C510EBA0EA9L;
    if ((x & 1) == 0) {
      x = ~x + 7;
    } else {
      x ^= 0xF037AFC44D82A53L;
    }
    x = (x ^ (x >>> 26)) * 0x9BB183E1570266BL;
    x = (x ^ (x >>> 9)) * 0x742A8061F2642ABL;
    x = (x << 18) - (x >>> 29) + 0xEA59679ED3A32A9L;
    x = x * 5 + (x >> 5);
    x = (x ^ (x >>> 6)) * 0x2E5F9500CE5AF69L;
    x = (x << 21) - (x >>> 22) + 0xC26E7A487F53DDDL;
    x = (x << 15) - (x >>> 35) + 0x2D8AD8CAC127E93L;
    x = (x << 26) - (x >>> 4) + 0x401D68FFE977C57L;
    x = (x ^ (x >>> 1)) * 0x8D118E381728A07L;
    x = x * 18 + (x >> 16);
    if ((x & 15) == 0) {
      x = ~x + 34;
    } else {
      x ^= 0xD5A94228BC08311L;
    }
    x = x * 47 + (x >> 10);
    x = (x << 7) - (x >>> 56) + 0xB4EBF4BE1C60AA3L;
    if ((x & 1) == 0) {
      x = ~x + 6;
    } else {
      x ^= 0x213BCA7D644DE2FL;
    }
    x = (x ^ (x >>> 21)) * 0x416E99BE13E213FL;
    x += Long.rotateLeft(x, 2) ^ 0xD75D676AA4C5C61L;
    x = x * 21 + (x >> 22);
    x = (x ^ (x >>> 15)) * 0x44DF96F28541425L;
    x = (x ^ (x >>> 9)) * 0x5434815F637A469L;
    return x;
  }

  static long m4(long x) {
    x += Long.rotateLeft(x, 2) ^ 0x37C60E94F3E885FL;
    x += Long.rotateLeft(x, 1) ^ 0x1579DA061B2480DL;
    x = (x << 17) - (x >>> 44) + 0x3F88AF533736DCDL;
    x = (x ^ (x >>> 9)) * 0x24D458916FA1421L;
    x = x * 28 + (x >> 2);
    x += Long.rotateLeft(x, 3) ^ 0x8778F74F527B5C3L;
    x = x * 51 + (x >> 13);
    x += Long.rotateLeft(x, 10) ^ 0xA4AA07B9E6397D5L;
    x = (x ^ (x >>> 27)) * 0xE456559B70AF5F3L;
    x = x * 61 + (x >> 5);
    x = x * 60 + (x >> 26);
    x = (x ^ (x >>> 1)) * 0xA31A49D22126541L;
    x = (x ^ (x >>> 13)) * 0x8EFBA44738E0B77L;
    x = (x ^ (x >>> 21)) * 0x3E9B768AE4001E3L;
    x = (x << 1) - (x >>> 32) + 0x11F2D44CC35E835L;
    x = x * 50 + (x >> 3);
    x = (x ^ (x >>> 28)) * 0xBAB5B373C1AE917L;
    x += Long.rotateLeft(x, 24) ^ 0x75D8D8AF9C9C679L;
    if ((x & 7) == 0) {
      x = ~x + 33;
    } else {
      x ^= 0xAF06BCFE91457DBL;
    }
    x = (x ^ (x >>> 20)) * 0x32C3244A48C1D5DL;
    x = x * 24 + (x >> 5);
    x = x * 11 + (x >> 19);
    if ((x & 3) == 0) {
      x = ~x + 46;
    } else {
      x ^= 0xB1330C3197A14E3L;
    }
    if ((x & 15) == 0) {
      x = ~x + 48;
    } else {
      x ^= 0x491961A843BAEE9L;
    }
    if ((x & 3) == 0) {
      x = ~x + 52;
    } else {
      x ^= 0xFE48EF61E563409L;
    }
    x = (x << 3) - (x >>> 33) + 0x4A227F3047B2C11L;
    x = (x ^ (x >>> 27)) * 0xFE9EB4AF7D5F125L;
    x = (x << 13) - (x >>> 16) + 0xF21201EEAA3556DL;
    return x;
  }

  static long m5(long x) {
    x = (x ^ (x >>> 19)) * 0xBF5B41124491DF7L;
    x = (x << 5) - (x >>> 41) + 0xA1B501DD1F9BDFFL;
    x = (x ^ (x >>> 23)) * 0x7F7595B3B3BF4BFL;
    if ((x & 15) == 0) {
      x = ~x + 13;
    } else {
      x ^= 0xF3308CE00EB4E11L;
    }
    if ((x & 15) == 0) {
      x = ~x + 22;
    } else {
      x ^= 0x2405636BA28A679L;
    }
    x = (x << 13) - (x >>> 23) + 0xD7196181EF3EA45L;
    x = (x ^ (x >>> 11)) * 0xD6CFF71569908F7L;
    x = (x ^ (x >>> 31)) * 0x300300B688B661L;
    x = (x << 12) - (x >>> 7) + 0x63E198664950DC3L;
    x = (x << 30) - (x >>> 30) + 0x4670931C172B299L;
    x = (x << 4) - (x >>> 6) + 0xA97766FD5AD5361L;
    x += Long.rotateLeft(x, 8) ^ 0x82CE7866FAD7937L;
    x += Long.rotateLeft(x, 25) ^ 0xF4C73F2C8FF1C39L;
    x = (x ^ (x >>> 26)) * 0x6669215A1826327L;
    x = (x ^ (x >>> 2)) * 0x736B96A692FD361L;
    x = (x << 16) - (x >>> 6) + 0xED4142BE9729F3FL;
    x += Long.rotateLeft(x, 16) ^ 0x482082357FA49E5L;
    x = (x << 24) - (x >>> 50) + 0xA71F11BF9EE8BC9L;
    if ((x & 15) == 0) {
      x = ~x + 18;
    } else {
      x ^= 0x7BB1D124D039B73L;
    }
    x = (x ^ (x >>> 6)) * 0x133E615296259C9L;
    x = x * 54 + (x >> 29);
    if ((x & 15) == 0) {
      x = ~x + 24;
    } else {
      x ^= 0xC25E114FF18FE33L;
    }
    if ((x & 1) == 0) {
      x = ~x + 38;
    } else {
      x ^= 0x3E7C65631419775L;
    }
    x += Long.rotateLeft(x, 11) ^ 0x51BCD771751F579L;
    x = (x << 9) - (x >>> 54) + 0x33BF91591D277F3L;
    if ((x & 3) == 0) {
      x = ~x + 29;
    } else {
      x ^= 0x862FE23BEEF67FBL;
    }
    if ((x & 15) == 0) {
      x = ~x + 24;
    } else {
      x ^= 0xFE321EC08A58D7L;
    }
    x = (x << 19) - (x >>> 26) + 0xAFCF0E7203943F7L;
    return x;
  }

  static long m6(long x) {
    x = (x ^ (x >>> 9)) * 0x627292F3F9AA885L;
    if ((x & 1) == 0) {
      x = ~x + 22;
    } else {
      x ^= 0xD07884BD9435541L;
    }
    x += Long.rotateLeft(x, 2) ^ 0xC3813CEB5A29061L;
    x = x * 3 + (x >> 16);
    if ((x & 3) == 0) {
      x = ~x + 53;
    } else {
      x ^= 0x394AFBE1BEA705FL;
    }
    x += Long.rotateLeft(x, 17) ^ 0xF1058661BE03DF1L;
    x = (x ^ (x >>> 18)) * 0x598650A1FB43BL;
    x += Long.rotateLeft(x, 19) ^ 0xA53FDDC099F9C9FL;
    x += Long.rotateLeft(x, 21) ^ 0xA2E3F93873B9903L;
    x = (x ^ (x >>> 4)) * 0x86417B64CE3B0CDL;
    if ((x & 1) == 0) {
      x = ~x + 17;
    } else {
      x ^= 0x99DF209CA5D5E7DL;
    }
    x = (x ^ (x >>> 18)) * 0x75EFD23FF125EB5L;
    x = (x << 21) - (x >>> 56) + 0x3E0B25CE23F03CDL;
    x = x * 38 + (x >> 8);
    x = (x << 2) - (x >>> 4) + 0x7F9142831B1891BL;
    x = (x ^ (x >>> 9)) * 0x6CA0649AAD7C7C1L;
    x += Long.rotateLeft(x, 16) ^ 0x568A8C2B2217139L;
    x = (x << 22) - (x >>> 28) + 0x1BA98532B558FDL;
    x = x * 16 + (x >> 3);
    x = (x << 25) - (x >>> 55) + 0x3B1649431A59C4BL;
    x += Long.rotateLeft(x, 9) ^ 0x4B80B82E3AB6283L;
    x = x * 42 + (x >> 16);
    if ((x & 3) == 0) {
      x = ~x + 61;
    } else {
      x ^= 0xE71597AA50B96FL;
    }
    if ((x & 3) == 0) {
      x = ~x + 16;
    } else {
      x ^= 0xF95FE8A060C8805L;
    }
    if ((x & 15) == 0) {
      x = ~x + 48;
    } else {
      x ^= 0x2F217E70F650639L;
    }
    if ((x & 1) == 0) {
      x = ~x + 48;
    } else {
      x ^= 0x506F68AE2328995L;
    }
    x = (x ^ (x >>> 30)) * 0x30D0A2B544940E1L;
    x = x * 32 + (x >> 24);
    return x;
  }

  static long m7(long x) {
    x = (x << 11) - (x >>> 31) + 0x1BE4A5D2B54AF77L;
    x = (x ^ (x >>> 9)) * 0x6B911F959F9BB79L;
    x = x * 51 + (x >> 31);
    x = (x << 27) - (x >>> 54) + 0x167774E6EB4FFF9L;
    if ((x & 15) == 0) {
      x = ~x + 26;
    } else {
      x ^= 0xEB64C5C8AA1A59DL;
    }
    x += Long.rotateLeft(x, 11) ^ 0xE5A15B7BCC0FD99L;
    x = (x ^ (x >>> 21)) * 0xCFD3BB73F7DC86BL;
    x = (x ^ (x >>> 13)) * 0x10053D276CC0573L;
    x = (x << 7) - (x >>> 50) + 0xE6077D710170D2BL;
    x = (x << 9) - (x >>> 24) + 0xF429C62F52B2549L;
    x = (x << 24) - (x >>> 48) + 0x5105122B0882411L;
    x = (x << 1) - (x >>> 49) + 0x9877279C1726F07L;
    x = (x ^ (x >>> 27)) * 0x79A5FD61B757B21L;
    if ((x & 15) == 0) {
      x = ~x + 19;
    } else {
      x ^= 0x6E106C0E9DE0479L;
    }
    x += Long.rotateLeft(x, 30) ^ 0x23A80A2ED51B13L;
    x += Long.rotateLeft(x, 20) ^ 0xDC7A61553EAB031L;
    if ((x & 1) == 0) {
      x = ~x + 53;
    } else {
      x ^= 0x9880E88C841721FL;
    }
    x = x * 28 + (x >> 7);
    if ((x & 7) == 0) {
      x = ~x + 44;
    } else {
      x ^= 0x7B5007908AB4AE5L;
    }
    x += Long.rotateLeft(x, 14) ^ 0xFCE205C1AEFCA63L;
    x = (x << 20) - (x >>> 8) + 0x18AF2663555D6AFL;
    if ((x & 3) == 0) {
      x = ~x + 31;
    } else {
      x ^= 0x3BF449F2C564D57L;
    }
    if ((x & 3) == 0) {
      x = ~x + 42;
    } else {
      x ^= 0xAC9261FE429C87DL;
    }
    x = x * 52 + (x >> 28);
    x = (x << 10) - (x >>> 20) + 0x4485C04911F52DDL;
    x = (x << 24) - (x >>> 19) + 0x707C5F332FE1F37L;
    x += Long.rotateLeft(x, 8) ^ 0x4806D2627401FA1L;
    x = (x << 3) - (x >>> 28) + 0xFE111EB406C6133L;
    return x;
  }
}
