"""The words of the generated travel chats (``bench decisions``): what users and the agent say besides constraints.

CrossWOZ's facilities with the canonical key a user would say (and its Chinese), the hotel classes, the
diets a trip frame may carry, and the chat's filler, acknowledgements, unrelated questions with their answers
and the questions that ask for a decision, each in Chinese and English. Read by
:mod:`weaver.bench.decision_chats`; nothing here is tuned to what the weaver reads.
"""

from __future__ import annotations

__all__ = ["ACK", "AMENITY_KEYS", "AMENITY_ZH", "ASIDES", "DECIDE", "DIETS", "FILLER", "HOTEL_TYPES"]

AMENITY_KEYS = {  # CrossWOZ facility -> the canonical key a user would say (facilities without one are skipped)
    "无烟房": "non-smoking",
    "24小时热水": "hot water",
    "宽带上网": "broadband",
    "叫醒服务": "wake-up call",
    "吹风机": "hair dryer",
    "行李寄存": "luggage storage",
    "中式餐厅": "chinese restaurant",
    "会议室": "meeting room",
    "公共区域和部分房间提供wifi": "wifi",
    "酒店各处提供wifi": "wifi",
    "所有房间提供wifi": "wifi",
    "部分房间提供wifi": "wifi",
    "公共区域提供wifi": "wifi",
    "接待外宾": "foreign guests",
    "国际长途电话": "international calls",
    "早餐服务": "breakfast",
    "早餐服务免费": "free breakfast",
    "暖气": "heating",
    "洗衣服务": "laundry",
    "残疾人设施": "accessible",
    "接机服务": "airport pickup",
    "健身房": "gym",
    "西式餐厅": "western restaurant",
    "租车": "car rental",
    "商务中心": "business centre",
    "室内游泳池": "pool",
    "室外游泳池": "pool",
    "SPA": "spa",
    "桑拿": "sauna",
    "接站服务": "station pickup",
    "温泉": "hot spring",
    "看护小孩服务": "babysitting",
}
AMENITY_ZH = {
    "non-smoking": "无烟房",
    "hot water": "24小时热水",
    "broadband": "宽带上网",
    "wake-up call": "叫醒服务",
    "hair dryer": "吹风机",
    "luggage storage": "行李寄存",
    "chinese restaurant": "中餐厅",
    "meeting room": "会议室",
    "wifi": "wifi",
    "foreign guests": "接待外宾",
    "international calls": "国际长途电话",
    "breakfast": "早餐",
    "free breakfast": "免费早餐",
    "heating": "暖气",
    "laundry": "洗衣服务",
    "accessible": "无障碍设施",
    "airport pickup": "接机服务",
    "gym": "健身房",
    "western restaurant": "西餐厅",
    "car rental": "租车",
    "business centre": "商务中心",
    "pool": "游泳池",
    "spa": "SPA",
    "sauna": "桑拿",
    "station pickup": "接站服务",
    "hot spring": "温泉",
    "babysitting": "看护小孩服务",
}
HOTEL_TYPES = {
    "经济型": ("economy", "经济型", "an economy"),
    "舒适型": ("comfort", "舒适型", "a mid-range"),
    "高档型": ("upscale", "高档型", "an upscale"),
    "豪华型": ("luxury", "豪华型", "a luxury"),
}
DIETS = [
    ("diet/seafood", "seafood", "我对海鲜过敏", "I'm allergic to seafood"),
    ("diet/spicy", "spicy", "我不吃辣", "I don't eat spicy food"),
    ("diet/style", "vegetarian", "我吃素", "I'm vegetarian"),
    ("diet/peanut", "peanut", "我对花生过敏", "I'm allergic to peanuts"),
]

FILLER = {
    "zh": ["哈哈，听起来不错", "好的谢谢", "嗯嗯", "太好了！", "这个我再想想", "谢谢你的帮助", "好的，没问题"],
    "en": [
        "Haha, sounds good",
        "Thanks!",
        "Okay",
        "Great!",
        "Let me think about it",
        "Cool, thank you",
        "Alright, no problem",
    ],
}
ACK = {
    "zh": ["好的。", "明白，已记下。", "好的，还需要查什么吗？", "没问题。", "收到。"],
    "en": ["Okay.", "Got it, noted.", "Sure, anything else I can help with?", "No problem.", "Noted."],
}
ASIDES = {
    "zh": [
        ("北京五月的天气怎么样？", "五月的北京白天二十多度，早晚偏凉，偶尔有风沙，建议带一件薄外套。"),
        ("北京地铁一般几点停运？", "大部分线路在晚上十一点左右收车，首班车一般在早上五点多，具体以各线路时刻表为准。"),
        ("有什么特产可以带回去？", "常见的有稻香村糕点、果脯、茯苓饼和六必居酱菜，老字号店里都能买到。"),
        ("在北京打车方便吗？", "打车很方便，用手机叫车即可；早晚高峰比较堵，地铁通常更快。"),
        ("需要办交通卡吗？", "可以用手机上的交通卡或扫码乘车，不一定要办实体卡。"),
        ("北京的胡同有什么讲究吗？", "胡同是老北京的街巷，四合院多在其中，逛的时候注意不要打扰居民。"),
    ],
    "en": [
        (
            "What's the weather like in Beijing in May?",
            "Days in May are usually in the twenties Celsius, with "
            "cool mornings and evenings and the odd windy day; a light jacket helps.",
        ),
        (
            "When does the Beijing metro stop running?",
            "Most lines stop around 11 pm and start a little after 5 am; each line has its own timetable.",
        ),
        (
            "What souvenirs could I bring back?",
            "Popular ones are Daoxiangcun pastries, preserved fruit, "
            "fuling cakes and Liubiju pickles from the old shops.",
        ),
        (
            "Is it easy to get a taxi in Beijing?",
            "Yes, ride-hailing apps work well; rush hours are slow, when the metro is often quicker.",
        ),
        (
            "Do I need a transport card?",
            "A phone transport card or QR code works on the metro and buses, so a physical card is optional.",
        ),
        (
            "Anything to know about the hutongs?",
            "Hutongs are old Beijing's lanes with courtyard houses; locals live there, so keep the noise down.",
        ),
    ],
}
DECIDE = {
    "hotel": {
        "zh": ["住哪家酒店好？", "帮我挑一家酒店吧", "推荐一家合适的酒店"],
        "en": ["Which hotel should we stay at?", "Pick a hotel for us", "Recommend a suitable hotel"],
    },
    "restaurant": {
        "zh": ["晚饭去哪家餐厅？", "午饭吃什么好？", "推荐一家餐厅吧"],
        "en": ["Where should we go for dinner?", "What's a good place for lunch?", "Recommend a restaurant"],
    },
    "attraction": {
        "zh": ["去哪个景点玩？", "推荐个景点吧", "明天去哪个景点逛逛？"],
        "en": [
            "Which attraction should we visit?",
            "Recommend a sight to see",
            "Which sight should we visit tomorrow?",
        ],
    },
}
